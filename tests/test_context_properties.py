"""Property tests of the context validators: what each accepts is exactly its documented range."""

from __future__ import annotations

import string
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ember import _options
from ember.context import (
    get_auto_parallel_context,
    get_context,
    reset_auto_parallel_context,
    reset_context,
    reset_ps_context,
    set_auto_parallel_context,
    set_context,
)

CONTEXT = _options.CONTEXT
TUNE_MODES = {"NO_TUNE", "RL", "GA", "RL,GA", "GA,RL"}

fast = settings(max_examples=100, deadline=None)


@pytest.fixture(autouse=True)
def fresh_contexts() -> Iterator[None]:
    yield
    reset_context()
    reset_auto_parallel_context()
    reset_ps_context()


def accepts(option: _options.Option, value: Any) -> bool:
    try:
        option.validate(value)
    except (TypeError, ValueError):
        return False
    return True


# ---- memory sizes --------------------------------------------------------------------------

sizes = st.decimals(min_value=0, max_value=4096, places=3, allow_nan=False, allow_infinity=False)


@fast
@given(sizes)
def test_memory_sizes_in_gb_are_accepted_when_positive_and_above_the_minimum(size: Any) -> None:
    text = f"{size.normalize():f}GB"
    assert accepts(CONTEXT["max_device_memory"], text) == (size > 0)
    assert accepts(CONTEXT["mempool_block_size"], text) == (size >= 1)
    assert accepts(CONTEXT["variable_memory_max_size"], text) == (0 < size <= 31)


@fast
@given(st.integers(min_value=1, max_value=4096), st.sampled_from(["", "G", "gb", "Gb", "MB", "TB",
                                                                  " GB", "GB ", "GiB"]))
def test_memory_sizes_need_the_gb_suffix(size: int, unit: str) -> None:
    assert not accepts(CONTEXT["max_device_memory"], f"{size}{unit}")


@fast
@given(st.text(alphabet=string.printable))
def test_memory_sizes_reject_anything_but_a_number_and_gb(text: str) -> None:
    number = text.removesuffix("GB")
    well_formed = text.endswith("GB") and number.replace(".", "", 1).isdigit()
    if not well_formed:
        with pytest.raises(ValueError, match=r"max_device_memory must be a positive size in GB"):
            CONTEXT["max_device_memory"].validate(text)


@fast
@given(st.integers(min_value=0, max_value=4096))
def test_signs_and_leading_zeros_are_rejected(size: int) -> None:
    assert not accepts(CONTEXT["max_device_memory"], f"-{size}GB")
    assert not accepts(CONTEXT["max_device_memory"], f"+{size}GB")
    assert not accepts(CONTEXT["max_device_memory"], f"0{size}GB")


# ---- integers in a range -------------------------------------------------------------------


@fast
@given(st.integers(min_value=-10_000, max_value=10_000))
def test_device_id_is_accepted_exactly_in_0_to_4095(device_id: int) -> None:
    assert accepts(CONTEXT["device_id"], device_id) == (0 <= device_id <= 4095)


@fast
@given(st.integers(min_value=-10_000, max_value=10_000))
def test_max_call_depth_is_accepted_exactly_when_positive(depth: int) -> None:
    assert accepts(CONTEXT["max_call_depth"], depth) == (depth >= 1)


@fast
@given(st.sampled_from(["device_id", "max_call_depth", "mode"]), st.booleans())
def test_int_keys_reject_bools(key: str, flag: bool) -> None:
    with pytest.raises(TypeError, match=rf"{key} must be int, but got bool"):
        CONTEXT[key].validate(flag)


@fast
@given(st.sampled_from([k for k, o in CONTEXT.items() if o.type is bool]),
       st.integers() | st.text() | st.none())
def test_bool_keys_reject_everything_else(key: str, value: Any) -> None:
    with pytest.raises(TypeError, match=rf"{key} must be bool, but got"):
        CONTEXT[key].validate(value)


# ---- choices -------------------------------------------------------------------------------


@fast
@given(st.text() | st.sampled_from(sorted(TUNE_MODES)))
def test_auto_tune_mode_accepts_exactly_the_documented_modes(mode: str) -> None:
    assert accepts(CONTEXT["auto_tune_mode"], mode) == (mode in TUNE_MODES)


@fast
@given(st.lists(st.integers(min_value=-5, max_value=200), max_size=6))
def test_fusion_indices_are_accepted_when_non_negative_and_increasing(indices: list[int]) -> None:
    expected = all(i >= 0 for i in indices) and indices == sorted(set(indices))
    assert accepts(_options.AUTO_PARALLEL["all_reduce_fusion_config"], indices) == expected


@fast
@given(st.lists(st.lists(st.integers(min_value=1, max_value=64), min_size=1, max_size=4)
                .map(tuple), min_size=1, max_size=4).map(tuple))
def test_shard_strategies_round_trip(strategy: tuple[tuple[int, ...], ...]) -> None:
    set_auto_parallel_context(dataset_strategy=strategy)
    assert get_auto_parallel_context("dataset_strategy") == strategy
    assert get_auto_parallel_context("full_batch") is False


# ---- whole tables --------------------------------------------------------------------------


def test_every_default_is_accepted_by_its_own_check() -> None:
    for table in (_options.CONTEXT, _options.AUTO_PARALLEL, _options.PS):
        for option in table.values():
            if not (option.default_factory or option.env):
                assert option.validate(option.default) == option.default, option.name


candidates = st.fixed_dictionaries({}, optional={
    "device_id": st.integers(min_value=-2, max_value=4097),
    "max_call_depth": st.integers(min_value=-1, max_value=3),
    "auto_tune_mode": st.sampled_from(["RL", "GA", "BAD"]),
    "save_graphs": st.sampled_from([True, 1]),
    "mempool_block_size": st.sampled_from(["2GB", "0.5GB", "2G"]),
})


@pytest.mark.filterwarnings("ignore::UserWarning")
@fast
@given(candidates)
def test_a_call_is_stored_whole_or_not_at_all(kwargs: dict[str, Any]) -> None:
    reset_context()
    before = {key: get_context(key) for key in kwargs}
    valid = all(accepts(CONTEXT[key], value) for key, value in kwargs.items())
    try:
        set_context(**kwargs)
    except (TypeError, ValueError):
        assert not valid
        assert {key: get_context(key) for key in kwargs} == before
    else:
        assert valid
        assert {key: get_context(key) for key in kwargs} == kwargs
