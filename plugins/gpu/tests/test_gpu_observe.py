"""The Profiler and the data dump on the GPU backend, in both modes: the same op names and
values as on the CPU backend, each op's time taken after the device finished it."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from ember import Profiler, Tensor, context, dump

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tests"))
from nets import DenseReLU  # noqa: E402


@pytest.mark.parametrize("mode", [context.GRAPH_MODE, context.PYNATIVE_MODE])
def test_profile_and_dump(tmp_path: Path, mode: int) -> None:
    context.set_context(device_target="GPU", mode=mode)
    net = DenseReLU()
    x = np.random.default_rng(0).standard_normal((2, 4)).astype(np.float32)
    profiler = Profiler(output_path=str(tmp_path))
    assert profiler.synchronize is not None  # TensorFlow runs kernels asynchronously
    dump.start(dump.DumpConfig({"common_dump_settings": {"path": str(tmp_path / "d"),
                                                         "input_output": 2},
                                "e2e_dump_settings": {"enable": True}}))
    try:
        out = net(Tensor(x)).asnumpy()
    finally:
        dump.stop()
    files = profiler.analyse()
    assert [e[0] for e in profiler.events] == [
        "Default/dense-Dense/MatMul-op0", "Default/dense-Dense/BiasAdd-op1",
        "Default/relu-ReLU/ReLU-op2"]
    assert any(f.endswith("gpu_timeline_display_0.json") for f in files)
    (relu,) = (tmp_path / "d").rglob("ReLU.ReLU-op2.0.0.*.output.0.DefaultFormat.npy")
    np.testing.assert_array_equal(np.load(relu), out)
    weight, bias = net.dense.weight.asnumpy(), net.dense.bias.asnumpy()
    np.testing.assert_allclose(out, np.maximum(x @ weight.T + bias, 0), rtol=1e-5, atol=1e-6)
