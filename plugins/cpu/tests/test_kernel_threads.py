"""ember_cpu.threads: the thread count the convolutions' blocks use, and their pool."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import numpy as np
import pytest

from ember.ops.operations import math_ops, nn_ops
from ember_cpu import threads
from ember_cpu.kernels import KERNELS, conv
from ember_cpu.kernels import math as math_kernels


@pytest.fixture
def fresh(monkeypatch):
    threads.count.cache_clear()
    for name in threads._ENV:
        monkeypatch.delenv(name, raising=False)
    yield monkeypatch
    threads.count.cache_clear()


def test_the_count_is_what_the_blas_reads(fresh):
    fresh.setenv("OPENBLAS_NUM_THREADS", "3")
    assert threads.count() == 3
    threads.count.cache_clear()
    fresh.setenv("OMP_NUM_THREADS", "1")
    assert threads.count() == 1


def test_without_a_setting_every_core_of_the_process(fresh):
    assert threads.count() == len(os.sched_getaffinity(0))


@pytest.mark.parametrize("setting", ["0", "two", "-1"])
def test_a_bad_setting_names_the_variable(fresh, setting):
    fresh.setenv("OMP_NUM_THREADS", setting)
    with pytest.raises(ValueError, match=f"OMP_NUM_THREADS must be a positive integer, but "
                                         f"got '{setting}'"):
        threads.count()


@pytest.mark.parametrize("count", [1, 2])
def test_each_block_runs_once(fresh, count):
    fresh.setenv("OMP_NUM_THREADS", str(count))
    seen, lock = [], threading.Lock()

    def run(i):
        with lock:
            seen.append((i, threading.get_ident()))

    threads.each(run, 7)
    assert sorted(i for i, _ in seen) == list(range(7))
    assert len({ident for _, ident in seen}) == count


def test_work_of_few_blocks_stays_in_the_calling_thread_unless_asked(fresh):
    fresh.setenv("OMP_NUM_THREADS", "2")

    def idents(**share):
        seen, lock = set(), threading.Lock()

        def run(i):
            with lock:
                seen.add(threading.get_ident())

        threads.each(run, 3, **share)
        return seen

    assert idents() == {threading.get_ident()}
    assert len(idents(shared_from=2)) == 2


def test_an_error_in_a_block_is_raised_after_every_block_ends(fresh):
    fresh.setenv("OMP_NUM_THREADS", "2")
    done = []

    def run(i):
        if i == 1:
            raise ValueError("block 1")
        done.append(i)

    with pytest.raises(ValueError, match="block 1"):
        threads.each(run, 4)
    assert sorted(done) == [0, 2]


def test_convolutions_give_the_same_values_on_two_threads(fresh):
    fresh.setattr(conv, "_BLOCK_BYTES", 4096)  # one image a block
    rng = np.random.default_rng(0)
    x = rng.standard_normal((40, 3, 12, 12)).astype(np.float32)
    w = rng.standard_normal((8, 3, 3, 3)).astype(np.float32)
    dout = rng.standard_normal((40, 8, 6, 6)).astype(np.float32)
    args = dict(out_channel=8, kernel_size=3, pad_mode="pad", pad=1, stride=2)
    calls = [("Conv2D", nn_ops.Conv2D(**args), (x, w)),
             ("Conv2DBackpropInput", nn_ops.Conv2DBackpropInput(**args), (dout, w, x.shape)),
             ("Conv2DBackpropFilter", nn_ops.Conv2DBackpropFilter(**args), (dout, x, w.shape))]
    results = []
    for count in ("1", "2"):
        threads.count.cache_clear()
        fresh.setenv("OMP_NUM_THREADS", count)
        results.append([KERNELS[name](prim)(*inputs) for name, prim, inputs in calls])
    for one, two in zip(*results):
        np.testing.assert_allclose(two, one, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("transpose_a, transpose_b", [(False, False), (True, False),
                                                      (False, True), (True, True)])
def test_matrix_products_split_on_two_threads(fresh, transpose_a, transpose_b):
    fresh.setenv("OMP_NUM_THREADS", "2")
    fresh.setattr(math_kernels, "_SPLIT_MACS", 1)
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((9, 7)), rng.standard_normal((7, 5))
    a, b = (x.T.copy() if transpose_a else x), (y.T.copy() if transpose_b else y)
    prim = math_ops.MatMul(transpose_a=transpose_a, transpose_b=transpose_b)
    np.testing.assert_allclose(KERNELS["MatMul"](prim)(a, b), x @ y, rtol=1e-12)


def test_the_executors_hold_the_blas_to_one_thread():
    from threadpoolctl import threadpool_info

    threads.hold_blas()
    assert {lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"} <= {1}


def test_holding_the_blas_can_be_switched_off(monkeypatch):
    script = ("from threadpoolctl import threadpool_info\n"
              "from ember import ops, Tensor\n"
              "ops.add(Tensor(1.0), Tensor(2.0))  # a CPU executor is made\n"
              "print(sorted({lib['num_threads'] for lib in threadpool_info()\n"
              "              if lib['user_api'] == 'blas'}))")
    env = {**os.environ, "OMP_NUM_THREADS": "2"}
    held, kept = (subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                                 env={**env, threads.HOLD_ENV: switch}, check=True).stdout
                  for switch in ("1", "0"))
    assert held.strip() == "[1]" and kept.strip() == "[2]", (held, kept)
    monkeypatch.setenv(threads.HOLD_ENV, "no")
    threads.hold_blas.cache_clear()
    with pytest.raises(ValueError, match="EMBER_CPU_HOLD_BLAS must be 0 or 1, but got 'no'"):
        threads.hold_blas()
    threads.hold_blas.cache_clear()
