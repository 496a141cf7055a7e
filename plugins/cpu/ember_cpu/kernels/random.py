"""Random kernels on NumPy: one generator per primitive, seeded as Dropout's (``_OpGenerator``:
the primitive's seeds and the global seed)."""

from __future__ import annotations

import numpy as np

from ember_cpu.kernels.nn import _OpGenerator


def _drawing(draw):
    """A kernel factory: ``draw(rng, *inputs)`` with the primitive's generator."""

    def factory(prim):
        generator = _OpGenerator(*prim.seeds)
        return lambda *inputs: draw(generator(), *inputs)

    return factory


def _truncated_normal(prim):
    """Standard normal draws, those two standard deviations or more from 0 drawn again."""
    dtype, generator = prim.dtype.np_dtype, _OpGenerator(*prim.seeds)

    def kernel(shape):
        rng = generator()
        out = rng.standard_normal(shape)
        redraw = np.abs(out) >= 2
        while redraw.any():
            out[redraw] = rng.standard_normal(int(redraw.sum()))
            redraw = np.abs(out) >= 2
        return out.astype(dtype)

    return kernel


def _randperm(prim):
    generator = _OpGenerator(*prim.seeds)

    def kernel(n):
        out = np.full(prim.max_length, prim.pad).astype(prim.dtype.np_dtype)
        count = prim.count(n)
        out[:count] = generator().permutation(count)
        return out

    return kernel


def _uniform_int(rng, shape, minval, maxval):
    return rng.integers(int(minval), int(maxval), shape, dtype=np.int32)


def _gamma(rng, shape, alpha, beta):
    out = np.broadcast_shapes(tuple(shape), alpha.shape, beta.shape)
    return rng.gamma(np.broadcast_to(alpha, out), 1 / np.broadcast_to(beta, out)).astype(
        np.float32)


def _poisson(rng, shape, mean):
    out = np.broadcast_shapes(tuple(shape), mean.shape)
    return rng.poisson(np.broadcast_to(mean, out).astype(np.float64)).astype(np.int32)


def _choice_with_mask(prim):
    count, generator = prim.count, _OpGenerator(*prim.seeds)

    def kernel(x):
        found = np.argwhere(x)
        chosen = found[generator().permutation(len(found))[:count]]
        index = np.zeros((count, x.ndim), np.int32)
        index[:len(chosen)] = chosen
        return index, np.arange(count) < len(chosen)

    return kernel


def _sample_rows(rng, weights, num_sample):
    """``num_sample`` draws per row, each with probability proportional to the row's weight:
    a uniform draw in [0, total) picks the first class whose cumulative weight exceeds it."""
    cumulative = np.cumsum(weights, axis=-1)
    draws = rng.random(weights.shape[:-1] + (num_sample,)) * cumulative[..., -1:]
    picked = np.sum(draws[..., :, None] >= cumulative[..., None, :], axis=-1)
    return np.minimum(picked, weights.shape[-1] - 1)


def _categorical(prim):
    dtype, generators = prim.dtype.np_dtype, {}

    def kernel(logits, num_sample, seed=0):
        generator = generators.setdefault(seed, _OpGenerator(seed, 0))
        weights = np.exp(logits - logits.max(axis=-1, keepdims=True))
        return _sample_rows(generator(), weights.astype(np.float64), num_sample).astype(dtype)

    return kernel


def _uniform_class(rng, n, range_max):
    return rng.integers(0, range_max, n)


def _log_uniform_class(rng, n, range_max):
    """Class ``floor(exp(u * log(range_max + 1))) - 1`` for u uniform in [0, 1)."""
    return (np.exp(rng.random(n) * np.log1p(range_max)).astype(np.int64) - 1) % range_max


def _unique_classes(rng, draw, n, range_max, banned):
    """Draws until ``n`` distinct classes outside ``banned`` are found: (them, draws made)."""
    seen, kept, tries = set(banned), [], 0
    while len(kept) < n:
        for c in draw(rng, n, range_max).tolist():
            tries += 1
            if c not in seen:
                seen.add(c)
                kept.append(c)
                if len(kept) == n:
                    break
    return np.array(kept), tries


def _candidate_sampler(draw):
    """A kernel factory of a candidate sampler drawing classes with ``draw(rng, n,
    range_max)``; the primitive gives the expected counts."""

    def factory(prim):
        generator = _OpGenerator(*prim.seeds)
        n, range_max = prim.num_sampled, prim.range_max

        def kernel(true_classes):
            if prim.unique:
                avoid = prim.remove_accidental_hits and n + true_classes.size <= range_max
                banned = true_classes.ravel().tolist() if avoid else ()
                sampled, tries = _unique_classes(generator(), draw, n, range_max, banned)
            else:
                sampled, tries = draw(generator(), n, range_max), n
            return (sampled.astype(true_classes.dtype),
                    prim.expected_count(np, true_classes, tries),
                    prim.expected_count(np, sampled, tries))

        return kernel

    return factory


KERNELS = {
    "StandardNormal": _drawing(lambda rng, shape: rng.standard_normal(shape, np.float32)),
    "StandardLaplace": _drawing(lambda rng, shape: rng.laplace(size=shape).astype(np.float32)),
    "UniformReal": _drawing(lambda rng, shape: rng.random(shape, np.float32)),
    "TruncatedNormal": _truncated_normal,
    "Randperm": _randperm,
    "UniformInt": _drawing(_uniform_int),
    "Gamma": _drawing(_gamma),
    "Poisson": _drawing(_poisson),
    "RandomChoiceWithMask": _choice_with_mask,
    "RandomCategorical": _categorical,
    "Multinomial": _drawing(lambda rng, x, num_sample: _sample_rows(
        rng, x.astype(np.float64), num_sample).astype(np.int32)),
    "UniformCandidateSampler": _candidate_sampler(_uniform_class),
    "LogUniformCandidateSampler": _candidate_sampler(_log_uniform_class),
}
