"""Scripts that MindSpore 1.6 accepts are accepted here, and bad inputs get errors that name
what was wrong and what is accepted."""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest

from ember import Tensor, context, ms_function, ops
from ember.common import dtype as mstype

MS_VARS = ("MS_SERVER_NUM", "MS_WORKER_NUM", "MS_SCHED_HOST", "MS_SCHED_PORT", "MS_ROLE")


def test_enable_ps_without_the_environment_variables_is_accepted(monkeypatch):
    for name in MS_VARS:
        monkeypatch.delenv(name, raising=False)
    context.set_ps_context(enable_ps=True)
    assert context.get_ps_context("enable_ps") is True
    assert context.get_ps_context("server_num") is None  # read when a server would start


def test_enable_ps_still_checks_the_variables_that_are_set(monkeypatch):
    monkeypatch.setenv("MS_SCHED_PORT", "not-a-port")
    with pytest.raises(ValueError, match="MS_SCHED_PORT"):
        context.set_ps_context(enable_ps=True)
    assert context.get_ps_context("enable_ps") is False


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # profiling_options itself
def test_profiling_options_that_are_not_json_warn_while_profiling_is_off():
    with pytest.warns(UserWarning, match="profiling_options must be valid JSON.*no effect while "
                                          "enable_profiling is False"):
        context.set_context(profiling_options="not json")
    assert context.get_context("profiling_options") == "not json"


def test_profiling_options_that_are_not_json_are_refused_with_profiling_on(tmp_path):
    with pytest.raises(ValueError, match="profiling_options must be valid JSON"):
        context.set_context(enable_profiling=True, profiling_options="not json")
    assert context.get_context("enable_profiling") is False


def test_env_config_with_the_rdr_mode_key_is_accepted(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"rdr": {"enable": True, "mode": 2, "path": str(tmp_path)}}))
    context.set_context(env_config_path=str(path))
    assert context.get_context("env_config_path") == str(path)


@pytest.mark.parametrize(("data", "dtype", "error", "match"), [
    ([[1, 2], [3]], None, ValueError, r"Tensor: input_data \[\[1, 2\], \[3\]\] is not an "
                                      r"array of numbers: nested lists must be rectangular"),
    (2**63, None, ValueError, r"Tensor: input_data 9223372036854775808 is out of the range "
                              r"of Int64"),
    ([300], mstype.int8, ValueError, r"Tensor: input_data \[300\] is out of the range of Int8"),
])
def test_bad_tensor_input_is_named(data, dtype, error, match):
    with pytest.raises(error, match=match):
        Tensor(data, dtype)


def test_a_binary_op_with_one_input_says_how_many_it_takes():
    x = Tensor(np.ones(2, np.float32))
    with pytest.raises(TypeError, match=r"Add takes 2 inputs \(x, y\), but got 1"):
        ops.add(x)
    with pytest.raises(TypeError, match=r"Add takes 2 inputs \(x, y\), but got 3"):
        ops.Add()(x, x, x)


class Doubler:
    def __call__(self, x):
        return x + x


@pytest.mark.parametrize("fn", [functools.partial(ops.add, 1.0), Doubler(), ops.Add()],
                         ids=["partial", "callable-object", "primitive"])
def test_ms_function_of_a_non_function_is_refused_by_name(fn):
    with pytest.raises(TypeError, match=r"ms_function: expects a function or a method .*but "
                                        rf"got {type(fn).__name__}"):
        ms_function(fn)
