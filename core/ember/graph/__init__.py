"""Graph mode: tracing into one IR, passes, compiled execution, ``ms_function``."""

from ember.graph.compiler import GraphCompileError, compile_count, jit, ms_function

__all__ = ["GraphCompileError", "compile_count", "jit", "ms_function"]
