"""The conformance kit's array and nn case tables against the CPU backend in PyNative mode:
each reference gives the CPU backend's dtypes, shapes and values, and the tables cover every
primitive of array_ops and nn_ops that has a kernel."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Tensor, context
from ember.common import dtype as mstype
from ember.ops.operations import array_ops, nn_ops
from ember.ops.primitive import primitive_classes
from ember.testing.cases import OpCase, array, nn

TABLES = {"array": (array.CASES, array_ops), "nn": (nn.CASES, nn_ops)}
RUNS = [(case, dtype) for cases, _ in TABLES.values() for case in cases for dtype in case.dtypes]


@pytest.fixture(autouse=True)
def _pynative_cpu():
    context.set_context(mode=context.PYNATIVE_MODE, device_target="CPU")


def _outputs(value: object) -> tuple:
    return tuple(value) if isinstance(value, tuple | list) else (value,)


@pytest.mark.parametrize("case, dtype", RUNS,
                         ids=[f"{case.id}-{np.dtype(dtype).name}" for case, dtype in RUNS])
def test_reference_agrees_with_the_cpu_backend(case: OpCase, dtype: type):
    args = case.inputs(np.random.default_rng(0), dtype)
    with np.errstate(all="ignore"):  # kernels meet inf and NaN on purpose in edge cases
        got = case.make()(*[Tensor(a) if isinstance(a, np.ndarray) else a for a in args])
    want = _outputs(case.reference(*args))
    got = _outputs(got)
    assert len(got) == len(want), f"{len(got)} outputs, the reference has {len(want)}"
    rtol, atol = case.tol(dtype)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        w = np.asarray(w)
        assert isinstance(g, Tensor), f"output {i} is a {type(g).__name__}"
        assert g.dtype is mstype.from_numpy(w.dtype), f"output {i}: {g.dtype} vs {w.dtype}"
        assert g.shape == w.shape, f"output {i}: shape {g.shape} vs {w.shape}"
        if w.dtype.kind == "f":
            np.testing.assert_allclose(g.asnumpy(), w, rtol=rtol, atol=atol,
                                       err_msg=f"output {i}")
        else:
            np.testing.assert_array_equal(g.asnumpy(), w, err_msg=f"output {i}")


@pytest.mark.parametrize("table", TABLES)
def test_cases_are_well_formed(table: str):
    cases, _ = TABLES[table]
    ids = [case.id for case in cases]
    assert len(set(ids)) == len(ids), "case ids repeat"
    for case in cases:
        assert case.id.split("/")[0] == case.primitive, case.id
        assert case.dtypes, case.id
        if case.grad:
            assert np.float64 in case.dtypes, f"{case.id}: gradients are checked in float64"
            args = case.inputs(np.random.default_rng(0), np.float64)
            for i in case.grad:
                assert isinstance(args[i], np.ndarray) and args[i].dtype == np.float64, (
                    f"{case.id}: grad position {i} is not a float64 array")


@pytest.mark.parametrize("table", TABLES)
def test_every_primitive_with_a_kernel_has_a_case(table: str):
    cases, module = TABLES[table]
    defined = {cls.__name__ for cls in primitive_classes()
               if cls.__module__ == module.__name__ and not issubclass(cls, array_ops._Static)}
    assert defined - {case.primitive for case in cases} == set()
    assert {case.primitive for case in cases} - defined == set()
