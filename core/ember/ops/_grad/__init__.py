"""MindSpore 1.6's ``ops._grad``: the registries through which scripts replace a primitive's
backward rule (``@bprop_getters.register(P.Mul)``), and ``get_bprop_fn``."""

from ember.ops._grad.grad_base import bprop_getters, bprops, get_bprop_fn

__all__ = ["bprop_getters", "bprops", "get_bprop_fn"]
