"""ember_cpu.memory: the malloc thresholds the CPU executors set, and their switch."""

from __future__ import annotations

import pytest

from ember_cpu import memory


@pytest.fixture
def fresh(monkeypatch):
    memory.keep_freed_memory.cache_clear()
    yield monkeypatch
    memory.keep_freed_memory.cache_clear()


def test_switched_off_leaves_malloc_alone(fresh):
    fresh.setenv(memory.ENV, "0")
    assert memory.keep_freed_memory() is False


def test_a_bad_setting_names_the_variable(fresh):
    fresh.setenv(memory.ENV, "yes")
    with pytest.raises(ValueError, match="EMBER_CPU_KEEP_MEMORY must be 0 or 1, but got 'yes'"):
        memory.keep_freed_memory()


def test_applied_on_glibc(fresh):
    fresh.delenv(memory.ENV, raising=False)
    import platform

    if platform.libc_ver()[0] != "glibc":
        pytest.skip("mallopt is glibc's")
    assert memory.keep_freed_memory() is True
