"""Every ctypes binding of ember_ascend.driver against the C prototypes in prototypes.h."""

from __future__ import annotations

import ctypes
import re
from ctypes import (
    POINTER,
    c_bool,
    c_char_p,
    c_double,
    c_float,
    c_int,
    c_int8,
    c_int32,
    c_int64,
    c_size_t,
    c_uint8,
    c_uint32,
    c_uint64,
    c_void_p,
)
from pathlib import Path
from types import SimpleNamespace

import pytest
from acl_double import OPS

from ember_ascend import driver

HEADER = Path(__file__).with_name("prototypes.h")
SCALARS = {"int": c_int, "int32_t": c_int32, "uint32_t": c_uint32, "int64_t": c_int64,
           "uint64_t": c_uint64, "size_t": c_size_t, "int8_t": c_int8, "uint8_t": c_uint8,
           "bool": c_bool, "float": c_float, "double": c_double}
ENUMS = {"aclError", "aclnnStatus", "HcclResult", "aclDataType", "aclFormat", "aclrtMemcpyKind",
         "aclrtMemMallocPolicy", "aclrtMemAttr", "aclopEngineType", "aclopCompileType",
         "HcclDataType", "HcclReduceOp", "aclprofAicoreMetrics"}
HANDLES = {"aclrtStream", "aclrtEvent", "HcclComm"}  # typedefs of void*


def ctype_of(declaration: str) -> object:
    """The ctypes type of one C parameter or return type (names dropped)."""
    text = declaration.replace("const", " ")
    pointers = text.count("*") + text.count("[]")
    words = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text)
    base = words[0]
    if pointers == 0:
        if base == "void":
            return None
        if base in SCALARS:
            return SCALARS[base]
        if base in ENUMS:
            return c_int
        assert base in HANDLES, f"unknown C type {base!r} in {declaration!r}"
        return c_void_p
    if base == "char" and pointers == 1:
        return c_char_p
    if pointers == 1 and base in HANDLES:
        return POINTER(c_void_p)
    if pointers == 1:
        return POINTER(SCALARS[base]) if base in SCALARS else c_void_p
    return POINTER(c_void_p)


def parse(header: str) -> dict[str, tuple[object, list[object]]]:
    """Function name -> (restype, argtypes) for every prototype of the header."""
    body = re.sub(r"/\*.*?\*/", "", header, flags=re.S)
    table = {}
    for match in re.finditer(r"([A-Za-z_][\w\s\*]*?)\b(\w+)\s*\(([^)]*)\)\s*;", body):
        returns, name, params = match.groups()
        params = [p for p in (s.strip() for s in params.split(",")) if p]
        # drop each parameter's name (the last identifier, unless it is the only word)
        types = [re.sub(r"\b\w+\s*(\[\])?$", lambda m: m.group(1) or "", p).strip() or p
                 if len(re.findall(r"\w+", p.replace("const", ""))) > 1 else p for p in params]
        table[name] = (ctype_of(returns), [ctype_of(t) for t in types])
    return table


PROTOTYPES = parse(HEADER.read_text())
BINDINGS = {**driver.RUNTIME, **driver.NNOPBASE, **driver.ACLOP, **driver.HCCL,
            **driver.PROFILER, **driver.aclnn_bindings()}


def test_every_binding_has_a_prototype_and_every_prototype_a_binding() -> None:
    assert sorted(set(BINDINGS) - set(PROTOTYPES)) == []
    assert sorted(set(PROTOTYPES) - set(BINDINGS)) == []
    assert len(BINDINGS) > 150


@pytest.mark.parametrize("name", sorted(BINDINGS))
def test_binding_matches_its_prototype(name: str) -> None:
    assert BINDINGS[name] == PROTOTYPES[name], name


def test_the_parser_reads_pointers_handles_and_arrays() -> None:
    parsed = parse("aclError f(void **p, const int64_t *d, aclTensorDesc *in[], "
                   "aclrtStream s, const char *c, int8_t m);")
    assert parsed["f"] == (c_int, [POINTER(c_void_p), POINTER(c_int64), POINTER(c_void_p),
                                   c_void_p, c_char_p, c_int8])


def test_a_wrong_binding_is_caught() -> None:
    wrong = dict(driver.RUNTIME, aclrtMemcpy=(c_int, [c_void_p, c_size_t, c_void_p, c_int,
                                                      c_int]))
    assert wrong["aclrtMemcpy"] != PROTOTYPES["aclrtMemcpy"]


def test_bind_declares_each_function_of_a_table() -> None:
    library = SimpleNamespace(aclrtFree=SimpleNamespace(), aclInit=SimpleNamespace())
    driver.bind(library, {name: driver.RUNTIME[name] for name in ("aclrtFree", "aclInit")})
    assert library.aclrtFree.argtypes == [c_void_p] and library.aclrtFree.restype is c_int
    assert library.aclInit.argtypes == [c_char_p]


def test_the_double_models_every_bound_aclnn_operator() -> None:
    assert sorted(OPS) == sorted(driver.ACLNN)


def test_binding_a_library_without_a_function_fails_loudly() -> None:
    with pytest.raises(AttributeError):
        driver.bind(ctypes.CDLL(None), {"aclrtNoSuchFunction": (c_int, [])})
