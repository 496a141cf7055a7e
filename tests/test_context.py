"""ember.context: every key's default, round trip and rejection, warnings, atomicity, threads."""

from __future__ import annotations

import json
import os
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ember import _options, _plugins, context
from ember.context import (
    GRAPH_MODE,
    PYNATIVE_MODE,
    ParallelMode,
    get_auto_parallel_context,
    get_context,
    get_ps_context,
    reset_auto_parallel_context,
    reset_context,
    reset_ps_context,
    set_auto_parallel_context,
    set_context,
    set_ps_context,
)

PS_ENV = ("MS_SERVER_NUM", "MS_WORKER_NUM", "MS_SCHED_HOST", "MS_SCHED_PORT", "MS_ROLE")


@pytest.fixture(autouse=True)
def fresh_contexts(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in PS_ENV:
        monkeypatch.delenv(name, raising=False)
    yield
    reset_context()
    reset_auto_parallel_context()
    reset_ps_context()


@pytest.fixture
def quiet() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.fixture
def env_config(tmp_path: Path) -> str:
    path = tmp_path / "mindspore_config.json"
    path.write_text(json.dumps({"rdr": {"enable": True, "path": "/tmp/rdr"},
                                "sys": {"mem_reuse": False}}))
    return str(path)


# The reference's documented defaults, written out rather than read from the table under test.
CONTEXT_DEFAULTS: dict[str, Any] = {
    "device_id": 0,
    "max_device_memory": "1024GB",
    "variable_memory_max_size": "30GB",
    "mempool_block_size": "1GB",
    "save_graphs": False,
    "save_graphs_path": ".",
    "enable_dump": False,
    "save_dump_path": ".",
    "enable_profiling": False,
    "profiling_options": "",
    "print_file_path": "",
    "env_config_path": "",
    "precompile_only": False,
    "reserve_class_name_in_scope": True,
    "pynative_synchronize": False,
    "mode": GRAPH_MODE,
    "enable_graph_kernel": False,
    "graph_kernel_flags": "",
    "enable_reduce_precision": True,
    "auto_tune_mode": "NO_TUNE",
    "check_bprop": False,
    "max_call_depth": 1000,
    "enable_sparse": False,
    "grad_for_scalar": False,
    "enable_compile_cache": False,
    # ember's default is per user, not MindSpore's "." (the working directory)
    "compile_cache_path": os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "ember"),
    "fallback_device_target": "",
    "deterministic": "OFF",
    "save_ms_model": False,
    "save_ms_model_path": ".",
    "enable_auto_mixed_precision": True,
}
AUTO_PARALLEL_DEFAULTS: dict[str, Any] = {
    "device_num": 1,
    "global_rank": 0,
    "gradients_mean": False,
    "gradient_fp32_sync": True,
    "parallel_mode": "stand_alone",
    "search_mode": "dynamic_programming",
    "auto_parallel_search_mode": "dynamic_programming",
    "parameter_broadcast": False,
    "strategy_ckpt_load_file": "",
    "strategy_ckpt_save_file": "",
    "dataset_strategy": "data_parallel",
    "full_batch": False,
    "enable_parallel_optimizer": False,
    "all_reduce_fusion_config": [],
    "pipeline_stages": 1,
    "grad_accumulation_step": 1,
    "parallel_optimizer_config": {
        "gradient_accumulation_shard": True,
        "parallel_optimizer_threshold": 64,
    },
    "comm_fusion": {"allreduce": {"mode": "auto", "config": None}},
    "mirror_mean": False,
    "cast_before_mirror": True,
    # keys 1.6 accepts without documenting them
    "loss_repeated_mean": True,
    "group_ckpt_save_file": "",
    "communi_parallel_mode": "all_group_parallel",
    "optimizer_weight_shard_size": -1,
    "optimizer_weight_shard_aggregated_save": False,
    "sharding_propagation": False,
    "enable_alltoall": False,
    "enable_all_reduce_fusion": True,
}
PS_DEFAULTS: dict[str, Any] = {
    "enable_ps": False,
    "config_file_path": "",
    "scheduler_manage_port": 11202,
    "enable_ssl": False,
    "client_password": "",
    "server_password": "",
    "server_num": None,
    "worker_num": None,
    "scheduler_ip": None,
    "scheduler_port": None,
    "ms_role": None,
}

# A non-default value for every key; callables get pytest's tmp_path.
CONTEXT_VALUES: dict[str, Any] = {
    "device_id": 7,
    "device_target": "CPU",
    "max_device_memory": "3.5GB",
    "variable_memory_max_size": "6GB",
    "mempool_block_size": "2GB",
    "save_graphs": True,
    "save_graphs_path": lambda tmp: str(tmp / "graphs"),
    "enable_dump": True,
    "save_dump_path": lambda tmp: str(tmp),
    "enable_profiling": True,
    "profiling_options": '{"output": "/tmp/prof", "training_trace": "on", "aic_metrics": "Memory"}',
    "print_file_path": lambda tmp: str(tmp / "print.pb"),
    "env_config_path": "env_config",
    "precompile_only": True,
    "reserve_class_name_in_scope": False,
    "pynative_synchronize": True,
    "mode": PYNATIVE_MODE,
    "enable_graph_kernel": True,
    "graph_kernel_flags": "--opt_level=2 --dump_as_text",
    "enable_reduce_precision": False,
    "auto_tune_mode": "GA,RL",
    "check_bprop": True,
    "max_call_depth": 80,
    "enable_sparse": True,
    "grad_for_scalar": True,
    "enable_compile_cache": True,
    "compile_cache_path": lambda tmp: str(tmp / "cache"),
    "fallback_device_target": "CPU",
    "deterministic": "ON",
    "save_ms_model": True,
    "save_ms_model_path": lambda tmp: str(tmp),
    "enable_auto_mixed_precision": False,
}
AUTO_PARALLEL_VALUES: dict[str, Any] = {
    "device_num": 8,
    "global_rank": 3,
    "gradients_mean": True,
    "gradient_fp32_sync": False,
    "parallel_mode": "semi_auto_parallel",
    "search_mode": "sharding_propagation",
    "auto_parallel_search_mode": "recursive_programming",
    "parameter_broadcast": True,
    "strategy_ckpt_load_file": "./strategy_stage1.ckpt",
    "strategy_ckpt_save_file": "./strategy_stage2.ckpt",
    "dataset_strategy": ((1, 8), (1, 8)),
    "full_batch": True,
    "enable_parallel_optimizer": True,
    "all_reduce_fusion_config": [20, 35],
    "pipeline_stages": 2,
    "grad_accumulation_step": 4,
    "parallel_optimizer_config": {
        "gradient_accumulation_shard": False,
        "parallel_optimizer_threshold": 24,
    },
    "comm_fusion": {"allreduce": {"mode": "size", "config": 32}},
    "mirror_mean": True,
    "cast_before_mirror": False,
    "loss_repeated_mean": False,
    "group_ckpt_save_file": "./groups.ckpt",
    "communi_parallel_mode": "no_group_parallel",
    "optimizer_weight_shard_size": 2,
    "optimizer_weight_shard_aggregated_save": True,
    "sharding_propagation": True,
    "enable_alltoall": True,
    "enable_all_reduce_fusion": False,
}
PS_VALUES: dict[str, Any] = {
    "enable_ps": False,
    "config_file_path": "/etc/recovery.json",
    "scheduler_manage_port": 11203,
    "enable_ssl": True,
    "client_password": "c-secret-123",
    "server_password": "s-secret-456",
}


def _value(value: Any, tmp_path: Path, request: pytest.FixtureRequest) -> Any:
    if value == "env_config":
        return request.getfixturevalue("env_config")
    return value(tmp_path) if callable(value) else value


def test_constants() -> None:
    assert (GRAPH_MODE, PYNATIVE_MODE) == (0, 1)
    assert ParallelMode.MODE_LIST == [
        "stand_alone", "data_parallel", "hybrid_parallel", "semi_auto_parallel", "auto_parallel"
    ]
    assert ParallelMode.SEMI_AUTO_PARALLEL == "semi_auto_parallel"


def test_the_tables_cover_every_key_and_share_none() -> None:
    assert set(_options.CONTEXT) == {*CONTEXT_DEFAULTS, "device_target"} == set(CONTEXT_VALUES)
    assert set(_options.AUTO_PARALLEL) == set(AUTO_PARALLEL_DEFAULTS) == set(AUTO_PARALLEL_VALUES)
    assert set(_options.PS) == set(PS_DEFAULTS)
    tables = (_options.CONTEXT, _options.AUTO_PARALLEL, _options.PS)
    assert sum(map(len, tables)) == len(set().union(*tables))  # rules look keys up across tables


@pytest.mark.parametrize(("key", "default"), CONTEXT_DEFAULTS.items())
def test_context_default(key: str, default: Any) -> None:
    assert get_context(key) == default


@pytest.mark.parametrize(("key", "default"), AUTO_PARALLEL_DEFAULTS.items())
def test_auto_parallel_default(key: str, default: Any) -> None:
    assert get_auto_parallel_context(key) == default


@pytest.mark.parametrize(("key", "default"), PS_DEFAULTS.items())
def test_ps_default(key: str, default: Any) -> None:
    assert get_ps_context(key) == default


def test_device_target_defaults_to_the_preferred_backend_lazily(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[str] = []

    def default_device_target() -> str:
        calls.append("CPU")
        return "CPU"

    monkeypatch.setattr(_plugins, "default_device_target", default_device_target)
    reset_context()
    assert calls == []
    assert get_context("device_target") == "CPU"
    assert get_context("device_target") == "CPU"
    assert len(calls) == 1
    reset_context()
    assert get_context("device_target") == "CPU"
    assert len(calls) == 2


@pytest.mark.usefixtures("quiet")
@pytest.mark.parametrize(("key", "value"), CONTEXT_VALUES.items())
def test_context_round_trip(key: str, value: Any, tmp_path: Path,
                            request: pytest.FixtureRequest) -> None:
    value = _value(value, tmp_path, request)
    set_context(**{key: value})
    assert get_context(key) == value


@pytest.mark.usefixtures("quiet")
@pytest.mark.parametrize(("key", "value"), AUTO_PARALLEL_VALUES.items())
def test_auto_parallel_round_trip(key: str, value: Any) -> None:
    set_auto_parallel_context(**{key: value})
    assert get_auto_parallel_context(key) == value


@pytest.mark.parametrize(("key", "value"), PS_VALUES.items())
def test_ps_round_trip(key: str, value: Any) -> None:
    set_ps_context(**{key: value})
    assert get_ps_context(key) == value


@pytest.mark.usefixtures("quiet")
def test_reset_restores_every_default(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    # mode stays GRAPH_MODE: the parallel_mode set below needs it
    set_context(**{k: _value(v, tmp_path, request) for k, v in CONTEXT_VALUES.items()
                   if k != "mode"})
    set_auto_parallel_context(**{k: v for k, v in AUTO_PARALLEL_VALUES.items()
                                 if k not in ("mirror_mean", "cast_before_mirror",
                                              "auto_parallel_search_mode", "full_batch")})
    set_ps_context(**PS_VALUES)
    reset_context()
    reset_auto_parallel_context()
    reset_ps_context()
    assert {k: get_context(k) for k in CONTEXT_DEFAULTS} == CONTEXT_DEFAULTS
    assert {k: get_auto_parallel_context(k) for k in AUTO_PARALLEL_DEFAULTS} == (
        AUTO_PARALLEL_DEFAULTS
    )
    assert {k: get_ps_context(k) for k in PS_DEFAULTS} == PS_DEFAULTS


CONTEXT_REJECTS = [
    ({"devce_id": 1}, ValueError, r"set_context has no key 'devce_id'; did you mean 'device_id'\?"),
    ({"device_id": "0"}, TypeError, r"device_id must be int, but got str '0'"),
    ({"device_id": True}, TypeError, r"device_id must be int, but got bool True"),
    ({"device_id": 4096}, ValueError, r"device_id must be in \[0, 4095\], but got 4096"),
    ({"device_id": -1}, ValueError, r"device_id must be in \[0, 4095\], but got -1"),
    ({"save_graphs": 1}, TypeError, r"save_graphs must be bool, but got int 1"),
    ({"mode": 2}, ValueError, r"mode must be one of 0, 1, but got 2"),
    ({"max_call_depth": 0}, ValueError, r"max_call_depth must be at least 1, but got 0"),
    ({"max_call_depth": 1.5}, TypeError, r"max_call_depth must be int, but got float 1.5"),
    ({"auto_tune_mode": "GA, RL"}, ValueError,
     r"auto_tune_mode must be one of 'NO_TUNE', 'RL', 'GA', 'RL,GA', 'GA,RL', but got 'GA, RL'"),
    ({"max_device_memory": "3.5G"}, ValueError,
     r"max_device_memory must be a positive size in GB such as '5GB' or '3.5GB', but got '3.5G'"),
    ({"max_device_memory": "0GB"}, ValueError, r"max_device_memory must be a positive size"),
    ({"max_device_memory": 3}, TypeError, r"max_device_memory must be str, but got int 3"),
    ({"mempool_block_size": "0.5GB"}, ValueError,
     r"mempool_block_size must be at least 1GB, but got '0.5GB'"),
    ({"variable_memory_max_size": "32GB"}, ValueError,
     r"variable_memory_max_size must be at most 31GB, but got '32GB'"),
    ({"profiling_options": "{training_trace: on}", "enable_profiling": True}, ValueError,
     r"profiling_options must be valid JSON, but '\{training_trace: on\}' is not"),
    ({"profiling_options": '{"trainingtrace": "on"}', "enable_profiling": True}, ValueError,
     r"profiling_options has no key 'trainingtrace'; did you mean 'training_trace'\?"),
    ({"profiling_options": '{"task_trace": "yes"}', "enable_profiling": True}, ValueError,
     r"profiling_options\['task_trace'\] must be one of 'on', 'off', but got 'yes'"),
    ({"profiling_options": '["output"]', "enable_profiling": True}, TypeError,
     r"profiling_options must be dict"),
    ({"graph_kernel_flags": "opt_level=2"}, ValueError,
     r"graph_kernel_flags must be flags such as .*, but 'opt_level=2' is not a flag"),
    ({"device_target": 1}, TypeError, r"device_target must be str, but got int 1"),
    ({"device_target": "GPX"}, ValueError, r"device_target must be one of .*did you mean 'GPU'"),
    ({"device_target": "GPU"}, _plugins.BackendError, r"ember-gpu"),
    ({"device_target": "Ascend"}, _plugins.BackendError, r"ember-ascend"),
]


@pytest.mark.parametrize(("kwargs", "error", "match"), CONTEXT_REJECTS)
def test_context_rejects(kwargs: dict[str, Any], error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        set_context(**kwargs)


def test_path_rejects(tmp_path: Path) -> None:
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    with pytest.raises(ValueError, match=r"save_graphs_path must be a directory, but .* is a file"):
        set_context(save_graphs_path=str(a_file))
    with pytest.raises(ValueError, match=r"save_graphs_path must be a non-empty path"):
        set_context(save_graphs_path="")
    with pytest.raises(ValueError, match=r"print_file_path must be a file path, but .* directory"):
        set_context(print_file_path=str(tmp_path))


@pytest.mark.parametrize(("content", "error", "match"), [
    ("{not json", ValueError, r"env_config_path must be valid JSON, but the file .* is not"),
    ('{"rdr": {"enable": 1}}', TypeError,
     r"env_config_path file .*\['rdr'\]\['enable'\] must be bool, but got int 1"),
    ('{"rdr": {"path": "rdr"}}', ValueError, r"\['rdr'\]\['path'\] must be an absolute path"),
    ('{"sys": {"mem_Reuse": true}}', ValueError,
     r"has no key 'mem_Reuse'; did you mean 'mem_reuse'"),
    ('{"rdrr": {}}', ValueError, r"has no key 'rdrr'; did you mean 'rdr'"),
])
def test_env_config_rejects(tmp_path: Path, content: str, error: type[Exception],
                            match: str) -> None:
    path = tmp_path / "config.json"
    path.write_text(content)
    with pytest.raises(error, match=match):
        set_context(env_config_path=str(path))


def test_env_config_must_exist(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"env_config_path must be the path of a JSON file"):
        set_context(env_config_path=str(tmp_path / "missing.json"))


def test_get_rejects_unknown_keys() -> None:
    with pytest.raises(ValueError, match=r"set_context has no key 'max_call_deep'; did you mean "
                                         r"'max_call_depth'\?"):
        get_context("max_call_deep")
    with pytest.raises(ValueError, match=r"did you mean 'device_num'\?"):
        get_auto_parallel_context("devices_num")
    with pytest.raises(ValueError, match=r"set_ps_context has no key 'enable_pss'"):
        get_ps_context("enable_pss")
    with pytest.raises(TypeError, match=r"set_context keys must be str, but got int"):
        get_context(3)  # type: ignore[arg-type]


AUTO_PARALLEL_REJECTS = [
    ({"device_num": 0}, ValueError, r"device_num must be in \[1, 4096\], but got 0"),
    ({"device_num": 4097}, ValueError, r"device_num must be in \[1, 4096\], but got 4097"),
    ({"global_rank": 4096}, ValueError, r"global_rank must be in \[0, 4095\], but got 4096"),
    ({"gradients_mean": 0}, TypeError, r"gradients_mean must be bool, but got int 0"),
    ({"parallel_mode": "semi_auto"}, ValueError,
     r"parallel_mode must be one of 'stand_alone', .*, but got 'semi_auto'; did you mean "
     r"'semi_auto_parallel'\?"),
    ({"search_mode": "greedy"}, ValueError, r"search_mode must be one of 'recursive_programming'"),
    ({"auto_parallel_search_mode": "greedy"}, ValueError, r"auto_parallel_search_mode must be"),
    ({"dataset_strategy": "model_parallel"}, ValueError,
     r"dataset_strategy must be one of 'data_parallel', 'full_batch', but got 'model_parallel'"),
    ({"dataset_strategy": [[1, 8]]}, TypeError, r"dataset_strategy must be str or tuple, but got"),
    ({"dataset_strategy": ([1, 8],)}, TypeError, r"dataset_strategy\[0\] must be tuple"),
    ({"dataset_strategy": ((1, 0),)}, ValueError, r"dataset_strategy\[0\]\[1\] must be at least 1"),
    ({"all_reduce_fusion_config": (20, 35)}, TypeError, r"all_reduce_fusion_config must be list"),
    ({"all_reduce_fusion_config": [35, 20]}, ValueError, r"must be in increasing order"),
    ({"all_reduce_fusion_config": [-1]}, ValueError, r"all_reduce_fusion_config\[0\] must be at "
                                                     r"least 0, but got -1"),
    ({"all_reduce_fusion_config": ["1"]}, TypeError, r"all_reduce_fusion_config\[0\] must be int"),
    ({"pipeline_stages": 0}, ValueError, r"pipeline_stages must be at least 1, but got 0"),
    ({"grad_accumulation_step": 0}, ValueError, r"grad_accumulation_step must be at least 1"),
    ({"parallel_optimizer_config": {"gradient_accumulation": True}}, ValueError,
     r"parallel_optimizer_config has no key 'gradient_accumulation'; did you mean "
     r"'gradient_accumulation_shard'\?"),
    ({"parallel_optimizer_config": {"parallel_optimizer_threshold": -1}}, ValueError,
     r"parallel_optimizer_config\['parallel_optimizer_threshold'\] must be at least 0"),
    ({"comm_fusion": {"allreduce": {"mode": "sized", "config": 32}}}, ValueError,
     r"comm_fusion\['allreduce'\]\['mode'\] must be one of 'auto', 'size', 'index', but got "
     r"'sized'"),
    ({"comm_fusion": {"allreduce": {"config": 32}}}, ValueError, r"needs a 'mode'"),
    ({"comm_fusion": {"allreduce": {"mode": "size", "config": 0}}}, ValueError,
     r"comm_fusion\['allreduce'\]\['config'\] must be at least 1, but got 0"),
    ({"comm_fusion": {"allreduce": {"mode": "index", "config": 3}}}, TypeError,
     r"comm_fusion\['allreduce'\]\['config'\] must be list, but got int"),
    ({"comm_fusion": {"allreduce": {"mode": "auto", "config": 64}}}, TypeError,
     r"comm_fusion\['allreduce'\]\['config'\] must be None"),
    ({"comm_fusion": {"allgather": {"mode": "auto"}}}, ValueError,
     r"comm_fusion has no key 'allgather'"),
]


@pytest.mark.parametrize(("kwargs", "error", "match"), AUTO_PARALLEL_REJECTS)
def test_auto_parallel_rejects(kwargs: dict[str, Any], error: type[Exception],
                               match: str) -> None:
    with pytest.raises(error, match=match), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        set_auto_parallel_context(**kwargs)


def test_comm_fusion_modes() -> None:
    set_auto_parallel_context(comm_fusion={"allreduce": {"mode": "index", "config": [20, 35]}})
    assert get_auto_parallel_context("comm_fusion") == {
        "allreduce": {"mode": "index", "config": [20, 35]}
    }
    set_auto_parallel_context(comm_fusion={"allreduce": {"mode": "auto"}})
    auto = {"allreduce": {"mode": "auto", "config": None}}
    assert get_auto_parallel_context("comm_fusion") == auto


def test_dict_keys_update_the_keys_given() -> None:
    set_auto_parallel_context(parallel_optimizer_config={"parallel_optimizer_threshold": 8})
    assert get_auto_parallel_context("parallel_optimizer_config") == {
        "gradient_accumulation_shard": True, "parallel_optimizer_threshold": 8
    }


def test_reads_are_copies() -> None:
    get_auto_parallel_context("parallel_optimizer_config")["parallel_optimizer_threshold"] = 1
    get_auto_parallel_context("all_reduce_fusion_config").append(3)
    assert get_auto_parallel_context("parallel_optimizer_config")[
        "parallel_optimizer_threshold"] == 64
    assert get_auto_parallel_context("all_reduce_fusion_config") == []


# ---- warnings ------------------------------------------------------------------------------

DEPRECATED = [
    ("variable_memory_max_size", "5GB", "use max_device_memory"),
    ("enable_dump", True, "MINDSPORE_DUMP_CONFIG"),
    ("save_dump_path", ".", "MINDSPORE_DUMP_CONFIG"),
    ("enable_profiling", True, "Profiler"),
    ("profiling_options", '{"output": "/tmp/p"}', "Profiler"),
    ("save_ms_model", True, "0.x"),
    ("save_ms_model_path", ".", "0.x"),
    ("enable_auto_mixed_precision", False, "0.x"),
]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("key", "value", "hint"), DEPRECATED)
def test_deprecated_keys_warn_and_are_stored(key: str, value: Any, hint: str) -> None:
    with pytest.warns(DeprecationWarning, match=rf"{key} is deprecated.*{hint}"):
        set_context(**{key: value})
    assert get_context(key) == value


@pytest.mark.parametrize(("alias", "key", "value"), [
    ("mirror_mean", "gradients_mean", True),
    ("cast_before_mirror", "gradient_fp32_sync", False),
    ("auto_parallel_search_mode", "search_mode", "sharding_propagation"),
])
def test_aliases_warn_and_act_on_the_new_key(alias: str, key: str, value: Any) -> None:
    with pytest.warns(DeprecationWarning, match=rf"{alias} is deprecated.*{key}"):
        set_auto_parallel_context(**{alias: value})
    assert get_auto_parallel_context(key) == value == get_auto_parallel_context(alias)


def test_an_alias_and_its_key_must_agree() -> None:
    with pytest.raises(ValueError, match=r"mirror_mean=True, gradients_mean=False contradict"):
        set_auto_parallel_context(mirror_mean=True, gradients_mean=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        set_auto_parallel_context(mirror_mean=True, gradients_mean=True)
    assert get_auto_parallel_context("gradients_mean") is True


def test_unhonoured_key_is_stored_and_warned_once_per_target() -> None:
    set_context(device_target="CPU")
    with pytest.warns(UserWarning, match=r"enable_reduce_precision is honoured only on "
                                         r"device_target Ascend, not on the current "
                                         r"device_target 'CPU'"):
        set_context(enable_reduce_precision=False)
    assert get_context("enable_reduce_precision") is False
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        set_context(enable_reduce_precision=True)
        set_context(save_graphs=True, max_call_depth=10)  # honoured everywhere
    with pytest.warns(UserWarning, match=r"max_device_memory is honoured only on device_target "
                                         r"GPU and Ascend, not on the current device_target"):
        set_context(max_device_memory="2GB")


def test_the_target_set_by_the_same_call_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_plugins, "check_device_target", lambda target: None)
    monkeypatch.setattr(_plugins, "apply_context", lambda changes, target: None)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        set_context(device_target="Ascend", enable_reduce_precision=False)
    with pytest.warns(UserWarning, match=r"enable_graph_kernel .* GPU and Ascend, not on the "
                                         r"current device_target 'CPU'"):
        set_context(enable_graph_kernel=True, device_target="CPU")


def test_a_failed_call_warns_about_nothing() -> None:
    set_context(device_target="CPU")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError):
            set_context(enable_reduce_precision=False, enable_dump=True, device_id=-1)
    with pytest.warns(UserWarning, match="enable_reduce_precision"):
        set_context(enable_reduce_precision=False)


def test_reset_context_forgets_the_warnings() -> None:
    set_context(device_target="CPU")
    with pytest.warns(UserWarning):
        set_context(auto_tune_mode="RL")
    reset_context()
    with pytest.warns(UserWarning, match="auto_tune_mode"):
        set_context(auto_tune_mode="RL")


# ---- whole calls ---------------------------------------------------------------------------


def test_a_call_with_one_bad_key_changes_nothing() -> None:
    with pytest.raises(ValueError):
        set_context(device_id=3, save_graphs=True, mode=7)
    assert (get_context("device_id"), get_context("save_graphs")) == (0, False)
    with pytest.raises(TypeError):
        set_auto_parallel_context(device_num=8, gradients_mean="yes")
    assert get_auto_parallel_context("device_num") == 1
    with pytest.raises(ValueError):
        set_ps_context(enable_ssl=True, scheduler_manage_port=0)
    assert get_ps_context("enable_ssl") is False
    with pytest.raises(ValueError):
        set_auto_parallel_context(device_num=8, full_batch=True, dataset_strategy="data_parallel")
    assert get_auto_parallel_context("device_num") == 1


def test_backends_see_validated_changes_and_may_reject(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[dict[str, Any], str]] = []
    committed: list[tuple[dict[str, Any], int]] = []
    monkeypatch.setattr(_plugins, "apply_context", lambda changes, target: seen.append(
        (dict(changes), target)))
    monkeypatch.setattr(_plugins, "context_committed", lambda changes: committed.append(
        (dict(changes), get_context("max_call_depth"))))
    set_context(device_target="CPU", max_call_depth=10)
    assert seen == [({"device_target": "CPU", "max_call_depth": 10}, "CPU")]
    assert committed == [({"device_target": "CPU", "max_call_depth": 10}, 10)]

    def reject(changes: dict[str, Any], target: str) -> None:
        raise ValueError("the CPU backend cannot honour max_call_depth=20")

    monkeypatch.setattr(_plugins, "apply_context", reject)
    with pytest.raises(ValueError, match="cannot honour"):
        set_context(max_call_depth=20, device_id=1)
    assert (get_context("max_call_depth"), get_context("device_id")) == (10, 0)
    assert len(committed) == 1


def test_full_batch_is_dataset_strategy_full_batch() -> None:
    set_auto_parallel_context(full_batch=True)
    assert get_auto_parallel_context("dataset_strategy") == "full_batch"
    set_auto_parallel_context(dataset_strategy="data_parallel")
    assert get_auto_parallel_context("full_batch") is False
    set_auto_parallel_context(dataset_strategy="full_batch")
    assert get_auto_parallel_context("full_batch") is True
    set_auto_parallel_context(dataset_strategy=((1, 8), (1, 8)))
    assert get_auto_parallel_context("full_batch") is False
    set_auto_parallel_context(full_batch=True, dataset_strategy="full_batch")
    set_auto_parallel_context(full_batch=False, dataset_strategy=((2, 4),))
    assert get_auto_parallel_context("dataset_strategy") == ((2, 4),)


@pytest.mark.parametrize("parallel_mode", ["hybrid_parallel", "semi_auto_parallel",
                                           "auto_parallel"])
def test_pynative_accepts_only_two_parallel_modes(parallel_mode: str) -> None:
    accepted = r"PYNATIVE_MODE accepts only parallel_mode 'stand_alone' and 'data_parallel'"
    set_auto_parallel_context(parallel_mode=parallel_mode)
    with pytest.raises(ValueError, match=rf"{accepted}.*parallel_mode='{parallel_mode}'"):
        set_context(mode=PYNATIVE_MODE)
    assert get_context("mode") == GRAPH_MODE
    reset_auto_parallel_context()
    set_context(mode=PYNATIVE_MODE)
    with pytest.raises(ValueError, match=accepted):
        set_auto_parallel_context(parallel_mode=parallel_mode)
    assert get_auto_parallel_context("parallel_mode") == "stand_alone"
    set_auto_parallel_context(parallel_mode="data_parallel")
    assert get_auto_parallel_context("parallel_mode") == "data_parallel"


def test_threads_read_and_write_safely() -> None:
    errors: list[BaseException] = []

    def hammer(offset: int) -> None:
        try:
            for i in range(200):
                n = offset * 200 + i
                set_context(device_id=n % 4096, max_call_depth=n % 4096 + 1)
                assert 0 <= get_context("device_id") <= 4095
                set_auto_parallel_context(device_num=n % 4096 + 1)
                get_auto_parallel_context("device_num")
        except BaseException as exc:  # collected for the main thread
            errors.append(exc)

    threads = [threading.Thread(target=hammer, args=(k,)) for k in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert get_context("max_call_depth") == get_context("device_id") + 1  # written together


# ---- parameter server ----------------------------------------------------------------------


def _set_ps_env(monkeypatch: pytest.MonkeyPatch, **overrides: str) -> None:
    values = {"MS_SERVER_NUM": "1", "MS_WORKER_NUM": "2", "MS_SCHED_HOST": "127.0.0.1",
              "MS_SCHED_PORT": "8081", "MS_ROLE": "MS_WORKER", **overrides}
    for name, value in values.items():
        monkeypatch.setenv(name, value)


def test_ps_environment_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    _set_ps_env(monkeypatch)
    assert [get_ps_context(k) for k in ("server_num", "worker_num", "scheduler_ip",
                                        "scheduler_port", "ms_role")] == [
        1, 2, "127.0.0.1", 8081, "MS_WORKER"
    ]
    set_ps_context(enable_ps=True)
    assert get_ps_context("enable_ps") is True


@pytest.mark.parametrize(("name", "value", "key", "match"), [
    ("MS_SERVER_NUM", "two", "server_num", r"MS_SERVER_NUM \(server_num\) must be an integer, "
                                           r"but got 'two'"),
    ("MS_WORKER_NUM", "0", "worker_num", r"MS_WORKER_NUM \(worker_num\) must be at least 1"),
    ("MS_SCHED_PORT", "70000", "scheduler_port", r"MS_SCHED_PORT .* must be in \[1, 65535\]"),
    ("MS_SCHED_HOST", "sched", "scheduler_ip", r"MS_SCHED_HOST .* must be an IP address"),
    ("MS_ROLE", "MS_SERVERS", "ms_role", r"MS_ROLE .* did you mean 'MS_SERVER'"),
])
def test_ps_environment_is_validated(monkeypatch: pytest.MonkeyPatch, name: str, value: str,
                                     key: str, match: str) -> None:
    _set_ps_env(monkeypatch, **{name: value})
    with pytest.raises(ValueError, match=match):
        get_ps_context(key)
    with pytest.raises(ValueError, match=match):
        set_ps_context(enable_ps=True)
    assert get_ps_context("enable_ps") is False


def test_ps_environment_keys_are_read_only() -> None:
    with pytest.raises(ValueError, match=r"server_num is read from the environment variable "
                                         r"MS_SERVER_NUM"):
        set_ps_context(server_num=2)


def test_passwords_are_never_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "hunter2-very-secret"
    texts: list[str] = []
    for kwargs in (
        {"client_password": 12345},
        {"server_password": secret, "scheduler_manage_port": -1},
        {"client_password": secret, "client_pasword": secret},
        {"server_password": secret, "enable_ssl": "yes"},
    ):
        with pytest.raises((TypeError, ValueError)) as caught:
            set_ps_context(**kwargs)
        texts.append(str(caught.value))
    assert texts[0] == "client_password must be str, but got int"
    assert "12345" not in texts[0]
    with warnings.catch_warnings(record=True) as caught_warnings:
        warnings.simplefilter("always")
        set_ps_context(client_password=secret, server_password=secret)
    texts += [str(w.message) for w in caught_warnings]
    texts += [repr(context._PS.values), repr(_options.PS["client_password"])]
    assert all(secret not in text for text in texts)
    assert get_ps_context("client_password") == secret == get_ps_context("server_password")


# ---- docs ----------------------------------------------------------------------------------


def test_docs_list_every_key_from_the_table() -> None:
    doc = set_context.__doc__ or ""
    assert "max_call_depth (int): " in doc and "Default: 1000." in doc
    assert "enable_reduce_precision (bool): " in doc and "Honoured on Ascend only." in doc
    assert all(f"    {key} (" in doc for key in _options.CONTEXT)
    assert all(f"    {key} (" in (set_auto_parallel_context.__doc__ or "")
               for key in _options.AUTO_PARALLEL)
    assert "MS_SCHED_HOST" in (set_ps_context.__doc__ or "")
