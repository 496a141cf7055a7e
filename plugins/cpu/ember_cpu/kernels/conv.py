"""Convolution and pooling kernels on NumPy, for 2-D (NCHW) and 3-D (NCDHW) images alike.

Convolutions run as im2col and per-image GEMMs a block of images at a time (the blocks shared
among ``ember_cpu.threads``), the columns staying in cache from their copy to their GEMM.
A convolution of stride 1 works on each padded image flattened: the window of output pixel
``q`` at kernel tap ``t`` starts at ``q + offset[t]``, so every tap's columns are one
contiguous slice (copied at memory speed), and the GEMM computes the output on the padded
image's rows, whose extra columns are cropped (the "wide" output). Other strides copy a
strided window view. The input gradient is the columns' col2im as one reduction per phase
plane of the padded image (its pixels r, r + s, ... along each axis; stride 1 has one): the
sum over the taps landing on the plane of the columns' rows shifted by their offsets. Pools
combine one strided slice of the image per window tap. Primitives give their geometry:
``geometry(spatial)`` -> (padding (before, after) per spatial axis, flattened; output size).
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
from numpy.lib.stride_tricks import as_strided, sliding_window_view

from ember_cpu import threads


# -- windows: shared by convolutions and pools ----------------------------------------------
def _pad(x, pads, fill=0):
    """``x`` with ``pads`` = (before, after, before, after, ...) elements of ``fill`` around
    each spatial axis (the axes after the first two)."""
    if not any(pads):
        return x
    out = np.full(_padded(x.shape, pads), fill, dtype=x.dtype)
    out[_inside(pads, x.shape[2:])] = x
    return out


def _padded(shape, pads):
    """The shape of an image of ``shape`` padded by ``pads``."""
    return (*shape[:2], *(n + a + b for n, a, b in zip(shape[2:], pads[::2], pads[1::2])))


def _inside(pads, spatial):
    """The index of the unpadded image inside the padded one."""
    return (slice(None), slice(None), *(slice(a, a + n) for a, n in zip(pads[::2], spatial)))


def _taps(kernel, stride, dilation, out):
    """For each kernel tap, row-major: the slices of the padded image that hold the element
    every output pixel's window has at that tap."""
    return [tuple(slice(i * d, i * d + (o - 1) * s + 1, s)
                  for i, s, d, o in zip(tap, stride, dilation, out))
            for tap in itertools.product(*(range(k) for k in kernel))]


def _phases(kernel, stride, dilation):
    """Per axis, for each phase of the padded image (its pixels r, r + s, r + 2s, ...) that
    kernel taps land on: (r, the range of those taps)."""
    phases = []
    for k, s, d in zip(kernel, stride, dilation):
        step = s // math.gcd(s, d)  # taps that far apart land on the same phase
        phases.append([(i * d % s, range(i, k, step)) for i in range(min(step, k))])
    return phases


def _crop(xp, pads, spatial):
    return xp[_inside(pads, spatial)]


# -- convolution ----------------------------------------------------------------------------
#: bytes of columns made at a time: a stride-1 input gradient's stay in cache from their copy to
#: their GEMM, where a whole batch's (tens of MiB for a ResNet layer) go through DRAM; 1 MiB was
#: slower in the ResNet step, 8 MiB no faster
_BLOCK_BYTES = 1 << 21


class _ConvPlan:
    """A convolution's numbers for one input size: padding, output size, matrix shapes, the
    layout of its columns, and the blocks of images whose columns are made and multiplied at
    once. The columns of an image are (group, taps x C / group, row): tap-major, so that the
    channels of one group at one tap lie one ``row`` apart, as they do in the source. For
    stride 1 the rows are the source's channels (padded image and tail): a tap's channels are
    copied as one long slice, and the input gradient sums the taps' rows shifted back; the
    GEMMs read the first ``pixels`` of each row (BLAS takes the row length as the leading
    dimension)."""

    def __init__(self, prim, x_shape):
        n, c, *spatial = x_shape
        self.pads, self.out = prim.geometry(tuple(spatial))
        self.kernel = tuple(prim.kernel_size)
        self.stride, self.dilation = prim.stride[2:], prim.dilation[2:]
        self.group = prim.group
        self.x_shape = tuple(x_shape)
        self.padded_shape = _padded(x_shape, self.pads)
        self.flat = all(s == 1 for s in self.stride)
        # The input gradient's columns: in each phase plane of the padded image (its pixels
        # r, r + s, ... along each axis), a tap's window elements are the output pixels shifted
        # by ``tap x dilation // stride``, so the plane spans ``reach`` = out + the largest
        # shift. The GEMM writes (out[0], *reach[1:]) pixels per row, then zeros for the
        # shifted reads (the "wide" gradient).
        self.phases = _phases(self.kernel, self.stride, self.dilation)
        shifts = [(k - 1) * d // s for k, s, d in zip(self.kernel, self.stride, self.dilation)]
        self.reach = tuple(o + m for o, m in zip(self.out, shifts))
        self.steps = [math.prod(self.reach[i + 1:]) for i in range(len(self.reach))]
        self.grad_wide = (self.out[0], *self.reach[1:])
        self.grad_row = math.prod(self.reach) + sum(
            m * step for m, step in zip(shifts[1:], self.steps[1:]))
        if self.flat:
            # the forward on the same rows, the padded image's (reach == padded for stride 1)
            self.wide, self.row = self.grad_wide, self.grad_row
            self.tap_steps = tuple(d * step for d, step in zip(self.dilation, self.steps))
        else:
            self.wide, self.row = tuple(self.out), math.prod(self.out)
        self.pixels = math.prod(self.wide)
        # the output's pixels inside a wider layout
        self.crop = (slice(None), slice(None), *(slice(0, o) for o in self.out))
        taps = math.prod(self.kernel)
        self.per_group = c // self.group
        # weight: (group, O / group, taps x C / group); columns: (images, group, same, row)
        self.w_shape = (self.group, prim.out_channel // self.group, taps * self.per_group)
        self.out_shape = (n, prim.out_channel, *self.out)
        self.blocks = threads.blocks(n, c * taps * self.row * 4, _BLOCK_BYTES)

    def weights(self, w):
        """The filter (O, C / group, *kernel) as the columns' rows are ordered."""
        group, per_out, _ = self.w_shape
        return w.reshape(group, per_out, self.per_group, -1).swapaxes(2, 3).reshape(
            self.w_shape)

    def filter_of(self, dw):
        """``weights``' inverse for a gradient given as (group, rows, O / group)."""
        group, per_out, _ = self.w_shape
        return dw.reshape(group, -1, self.per_group, per_out).transpose(0, 3, 2, 1)

    def source(self, x):
        """The input the columns are read from: padded; for stride 1, each channel flattened
        into a row (followed by its tail of zeros)."""
        if not self.flat:
            return _pad(x, self.pads)
        n, c = self.x_shape[:2]
        size = math.prod(self.padded_shape[2:])
        if not any(self.pads) and self.row == size:
            return np.ascontiguousarray(x).reshape(n, c, size)
        xs = np.zeros((n, c, self.row), dtype=x.dtype)
        xs[:, :, :size].reshape(self.padded_shape)[_inside(self.pads, self.x_shape[2:])] = x
        return xs

    def _slices(self, xs, start):
        """For stride 1, the source ``xs`` (images, C, row) as seen by each tap of the images
        from ``start``: (images, group, *kernel, length) views, a group's channels being one
        slice of ``length`` that ends at its last channel's last pixel (so no image reads past
        its own rows)."""
        item, row = xs.itemsize, self.row
        length = (self.per_group - 1) * row + self.pixels
        return as_strided(xs[start:], (len(xs) - start, self.group, *self.kernel, length),
                          (xs.strides[0], self.per_group * row * item,
                           *(s * item for s in self.tap_steps), item)), length

    def columns(self, xs, start, stop):
        """im2col of images ``start:stop`` of the source: every (wide) output pixel's window,
        as (images, group, taps x C / group, pixels)."""
        group, _, rows = self.w_shape
        count = stop - start
        if self.flat and rows == self.per_group:  # a 1x1 kernel reads its source as is
            return xs[start:stop].reshape(count, group, rows, self.row)[..., :self.pixels]
        if self.flat:
            view, length = self._slices(xs, start)
            cols = np.empty((count, group, *self.kernel, self.per_group * self.row),
                            dtype=xs.dtype)
            np.copyto(cols[..., :length], view[:count])
            return cols.reshape(count, group, rows, self.row)[..., :self.pixels]
        rank = len(self.kernel)
        spans = tuple((k - 1) * d + 1 for k, d in zip(self.kernel, self.dilation))
        view = sliding_window_view(xs[start:stop], spans, axis=tuple(range(2, 2 + rank)))
        view = view[(slice(None), slice(None),
                     *(slice(None, (o - 1) * s + 1, s) for o, s in zip(self.out, self.stride)),
                     *(slice(None, None, d) for d in self.dilation))]
        # (images, C, *out, *kernel) -> (images, group, *kernel, C / group, *out)
        view = view.reshape(count, group, self.per_group, *view.shape[2:]).transpose(
            0, 1, *range(3 + rank, 3 + 2 * rank), 2, *range(3, 3 + rank))
        cols = np.empty(view.shape, dtype=xs.dtype)
        np.copyto(cols, view)
        return cols.reshape(count, group, rows, self.pixels)

    def columns_of(self, x):
        """``columns(i)``: the columns of block ``i`` of ``x``, made when asked (they stay in
        cache for their GEMM; keeping a batch's for the filter gradient measured slower)."""
        xs = self.source(x)
        return lambda i: self.columns(xs, *self.blocks[i])

    def widened(self, dout, start, stop, wide):
        """Images ``start:stop`` of an output gradient laid out as the ``wide`` output, as
        (images, group, O / group, pixels): zeros in the columns past the output's."""
        d = dout[start:stop]
        if wide != tuple(self.out):
            d = np.zeros((stop - start, dout.shape[1], *wide), dtype=dout.dtype)
            d[self.crop] = dout[start:stop]
        return d.reshape(stop - start, *self.w_shape[:2], -1)

    def forward(self, x, w):
        wm = self.weights(w)
        out = np.empty(self.out_shape, dtype=np.result_type(x, w))
        columns = self.columns_of(x)

        def block(i):
            start, stop = self.blocks[i]
            if self.wide == tuple(self.out):
                np.matmul(wm, columns(i), out=out[start:stop].reshape(
                    stop - start, *self.w_shape[:2], -1))
            else:
                wide = np.matmul(wm, columns(i))
                out[start:stop] = wide.reshape(stop - start, -1, *self.wide)[self.crop]

        threads.each(block, len(self.blocks))
        return out

    def image(self, dout, w):
        """col2im: the input gradient, each block's columns summed back into its images."""
        dtype = np.result_type(dout, w)
        wt = self.weights(w).transpose(0, 2, 1)
        group, _, rows = self.w_shape
        n, c = self.x_shape[:2]
        size, pixels = math.prod(self.reach), math.prod(self.grad_wide)
        # stride 1 has one phase plane, the padded image, which the sums write as rows in place
        if self.flat:
            dxs = np.empty((n, c, self.grad_row), dtype=dtype)
        else:
            dxs = np.zeros(self.padded_shape, dtype=dtype)

        def block(i):
            start, stop = self.blocks[i]
            count = stop - start
            cols = np.empty((count, group, rows, self.grad_row), dtype=dtype)
            cols[..., pixels:] = 0  # the shifted rows read these as edges
            np.matmul(wt, self.widened(dout, start, stop, self.grad_wide),
                      out=cols[..., :pixels])
            sums = dxs[start:stop] if self.flat else np.empty(
                (count, c, self.grad_row), dtype=dtype)
            for phase in itertools.product(*self.phases):
                np.add.reduce(self._shifted(cols, phase), axis=tuple(range(len(self.kernel))),
                              out=sums.reshape(count, group, -1))
                if not self.flat:
                    plane = dxs[(slice(start, stop), slice(None), *(
                        slice(r, r + s * m, s)
                        for (r, _), s, m in zip(phase, self.stride, self.reach)))]
                    plane[...] = sums[..., :size].reshape(count, c, *self.reach)[
                        (..., *(slice(0, m) for m in plane.shape[2:]))]

        threads.each(block, len(self.blocks))
        if self.flat:
            dxs = dxs[:, :, :size].reshape(self.padded_shape)
        return np.ascontiguousarray(_crop(dxs, self.pads, self.x_shape[2:]))

    def _shifted(self, cols, phase):
        """The input gradient's columns (images, group, taps x C / group, row) as the taps of
        one ``phase`` see them, (*its taps, images, group, C / group x row): each tap's rows
        moved back by its shift, so that their sum over the taps is the phase plane's rows
        (col2im as one reduction, which NumPy runs several times faster than a strided add
        per tap). A tap reads the rows before its own where its shift reaches back: the zeros
        past the last pixels."""
        count, group, _, row = cols.shape
        offset, strides = 0, []
        for i, ((_, taps), step, s, d) in enumerate(zip(phase, self.steps, self.stride,
                                                         self.dilation)):
            per_tap = math.prod(self.kernel[i + 1:]) * self.per_group * row
            offset += taps.start * per_tap - taps.start * d // s * step
            strides.append(taps.step * per_tap - taps.step * d // s * step)
        item = cols.itemsize
        return as_strided(cols.reshape(-1)[offset:],
                          (*(len(taps) for _, taps in phase), count, group,
                           self.per_group * row),
                          (*(s * item for s in strides), *cols.strides[:2], item))

    def filter_gradient(self, dout, x):
        group, per_out, rows = self.w_shape
        columns = self.columns_of(x)
        parts = [None] * len(self.blocks)

        def block(i):
            # per image columns @ dout^T, summed: BLAS runs this orientation up to twice as
            # fast as dout @ columns^T when the output channels are few
            d = self.widened(dout, *self.blocks[i], self.wide)
            parts[i] = np.matmul(columns(i), d.swapaxes(2, 3)).sum(axis=0)

        threads.each(block, len(self.blocks))
        dw = functools.reduce(np.add, parts, np.zeros((group, rows, per_out),
                                                      dtype=np.result_type(dout, x)))
        return self.filter_of(dw)


def _plans(prim):
    """The convolution's plan for an input shape, made once per shape."""
    return functools.lru_cache(maxsize=16)(lambda x_shape: _ConvPlan(prim, x_shape))


def _conv(prim):
    plan = _plans(prim)
    return lambda x, w: plan(x.shape).forward(x, w)


def _conv_backprop_input(prim):
    plan = _plans(prim)
    return lambda dout, w, input_size: plan(tuple(input_size)).image(dout, w)


def _conv_backprop_filter(prim):
    plan = _plans(prim)
    return lambda dout, x, filter_size: plan(x.shape).filter_gradient(dout, x).reshape(
        filter_size)


# -- pooling --------------------------------------------------------------------------------
# Every pool combines one strided slice of the (padded) image per window tap. For windows that
# tile the image this is as fast as reshaping it into tiles, and far faster than reducing the
# tiles with ``max(axis=(3, 5))`` (NumPy reduces short axes slowly: 35x slower for LeNet's).
def _pool_plan(prim):
    """(pads, output size, taps, what each window's sum is divided by: the primitive's
    ``divisor()`` for average pools, else None), made once per input spatial size."""
    kernel, stride = prim.kernel_size[2:], prim.strides[2:]
    divides = hasattr(prim, "divisor")

    @functools.lru_cache(maxsize=16)
    def plan(spatial):
        pads, out = prim.geometry(spatial)
        taps = _taps(kernel, stride, (1,) * len(kernel), out)
        return pads, out, taps, prim.divisor(spatial) if divides else None

    return plan


def _at(window):
    return (slice(None), slice(None), *window)


#: bytes of input image a pool handles at a time: its passes then stay in cache
_POOL_BLOCK_BYTES = 1 << 20


def _in_blocks(x, shape, run, zeros=False):
    """A new array of ``shape`` (x's batch first) and x's dtype, filled by
    ``run(images, out[images])`` for blocks of images shared among the threads."""
    out = (np.zeros if zeros else np.empty)(shape, dtype=x.dtype)
    blocks = threads.blocks(len(x), x[:1].nbytes, _POOL_BLOCK_BYTES)
    threads.each(lambda i: run(slice(*blocks[i]), out[slice(*blocks[i])]), len(blocks))
    return out


def _max_pool(prim):
    plan = _pool_plan(prim)

    def kernel(x):
        pads, out_size, taps, _ = plan(x.shape[2:])

        def run(images, out):
            xp = _pad(x[images], pads, -np.inf)
            np.copyto(out, xp[_at(taps[0])])
            for window in taps[1:]:
                np.maximum(out, xp[_at(window)], out=out)

        return _in_blocks(x, (*x.shape[:2], *out_size), run)

    return kernel


def _max_pool_with_argmax(prim):
    """MaxPool, and each maximum's position h * W + w in its plane: the first tap (row-major)
    that holds the window's maximum."""
    plan = _pool_plan(prim)

    def kernel(x):
        pads, out_size, taps, _ = plan(x.shape[2:])
        xp = _pad(x, pads, -np.inf)
        rows, cols = np.ogrid[:xp.shape[2], :xp.shape[3]]
        where = ((rows - pads[0]) * x.shape[3] + (cols - pads[2])).astype(np.int32)
        out = xp[_at(taps[0])].copy()
        argmax = np.broadcast_to(where[taps[0]], out.shape).copy()
        for window in taps[1:]:
            value = xp[_at(window)]
            higher = value > out
            np.copyto(out, value, where=higher)
            np.copyto(argmax, where[window], where=higher)
        return out, argmax

    return kernel


def _max_pool_grad(prim):
    plan = _pool_plan(prim)
    # windows that do not overlap write their taps' gradients instead of adding them
    tiled = all(s >= k for s, k in zip(prim.strides[2:], prim.kernel_size[2:]))

    def kernel(x, out, grad):
        pads, _, taps, _ = plan(x.shape[2:])

        def run(images, dx):
            xp, o, g = _pad(x[images], pads, -np.inf), out[images], grad[images]
            dxp = np.zeros(xp.shape, dtype=x.dtype) if any(pads) else dx
            open_ = np.ones(o.shape, dtype=bool)  # windows whose maximum has no gradient yet
            hit = np.empty(o.shape, dtype=bool)
            for window in taps:  # row-major, so the first maximum of a window takes it
                np.equal(xp[_at(window)], o, out=hit)
                hit &= open_
                open_ ^= hit  # (hit lies inside open_)
                if tiled:
                    np.multiply(g, hit, out=dxp[_at(window)])
                else:
                    dxp[_at(window)] += g * hit
            if dxp is not dx:
                dx[...] = _crop(dxp, pads, x.shape[2:])

        return _in_blocks(x, x.shape, run, zeros=True)

    return kernel


def _scatter_to_planes(shape, grad, argmax):
    """An array of ``shape`` (NCHW): ``grad`` added up at the positions ``argmax`` (h * W + w)
    of each (n, c) plane."""
    planes, size = shape[0] * shape[1], shape[2] * shape[3]
    index = argmax.reshape(planes, math.prod(argmax.shape[2:])) + np.arange(planes)[:, None] * size
    summed = np.bincount(index.ravel(), weights=grad.ravel(), minlength=planes * size)
    return summed.astype(grad.dtype).reshape(shape)


def _gather_from_planes(grad, argmax):
    """``grad`` (NCHW) read at the positions ``argmax`` (h * W + w) of each (n, c) plane."""
    n, c = grad.shape[:2]
    return np.take_along_axis(grad.reshape(n, c, math.prod(grad.shape[2:])),
                              argmax.reshape(n, c, math.prod(argmax.shape[2:])).astype(np.intp),
                              2).reshape(argmax.shape)


def _max_pool_grad_grad(prim):
    pool = _max_pool_with_argmax(prim)
    return lambda x, out, grad: _gather_from_planes(grad, pool(x)[1])


def _avg_pool(prim):
    plan = _pool_plan(prim)

    def kernel(x):
        pads, out_size, taps, divisor = plan(x.shape[2:])

        def run(images, total):
            xp = _pad(x[images], pads)
            np.copyto(total, xp[_at(taps[0])])
            for window in taps[1:]:
                total += xp[_at(window)]
            total /= divisor

        return _in_blocks(x, (*x.shape[:2], *out_size), run)

    return kernel


def _avg_pool_grad(prim):
    plan = _pool_plan(prim)

    def kernel(x, out, grad):
        pads, _, taps, divisor = plan(x.shape[2:])

        def run(images, dx):
            share = (grad[images] / divisor).astype(x.dtype, copy=False)
            dxp = np.zeros(_padded(dx.shape, pads), dtype=x.dtype) if any(pads) else dx
            for window in taps:
                dxp[_at(window)] += share
            if dxp is not dx:
                dx[...] = _crop(dxp, pads, x.shape[2:])

        return _in_blocks(x, x.shape, run, zeros=True)

    return kernel


def _swapped(factory):
    """A kernel factory taking its first two inputs the other way round (the 3-D backprop
    primitives take (weight, dout, size) and (x, dout, size))."""

    def make(prim):
        kernel = factory(prim)
        return lambda a, b, size: kernel(b, a, size)

    return make


KERNELS = {
    "Conv2D": _conv,
    "Conv2DBackpropInput": _conv_backprop_input,
    "Conv2DTranspose": _conv_backprop_input,
    "Conv2DBackpropFilter": _conv_backprop_filter,
    "MaxPool": _max_pool,
    "MaxPoolGrad": _max_pool_grad,
    "MaxPoolWithArgmax": _max_pool_with_argmax,
    "MaxPoolGradGrad": _max_pool_grad_grad,
    "MaxPoolGradWithArgmax": lambda p: lambda x, grad, argmax: _scatter_to_planes(
        x.shape, grad, argmax),
    "MaxPoolGradGradWithArgmax": lambda p: lambda x, grad, argmax: _gather_from_planes(
        grad, argmax),
    "AvgPool": _avg_pool,
    "AvgPoolGrad": _avg_pool_grad,
    "Conv3D": _conv,
    "Conv3DBackpropInput": _swapped(_conv_backprop_input),
    "Conv3DTranspose": lambda p: _swapped(_conv_backprop_input)(p.as_backprop_input()),
    "Conv3DBackpropFilter": _swapped(_conv_backprop_filter),
    "MaxPool3D": _max_pool,
    "MaxPool3DGrad": _max_pool_grad,
    "AvgPool3D": _avg_pool,
    "AvgPool3DGrad": _avg_pool_grad,
}
