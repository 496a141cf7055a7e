"""Converting Python control flow before tracing (in the spirit of TensorFlow's AutoGraph and
MindSpore's parser).

:func:`convert` rewrites a function's source so that ``if``/``else``, ``while``, ``for``,
``break``, ``continue``, ``return`` inside an ``if``, conditional expressions,
``and``/``or``/``not``, ``in``/``not in``, calls of the user's functions and indexing (a tuple
of cells indexed by a Tensor is ``switch_layer``) call the helpers of this module. Each helper
decides when it runs, at trace time: on a traced Tensor it builds a control-flow node
(``ember.graph.control_flow``); on a Python value it does what Python would, so Python-valued
control flow still unrolls::

    if x > y:                                  def if_true(z): z = x; return (z,)
        z = x                      ->          def if_false(z): z = y; return (z,)
    else:                                      (z,) = cf.if_stmt(x > y, if_true, if_false,
        z = y                                                    (cf.ld(lambda: z),), ("z",))

Branch and loop bodies become functions of the variables they assign (a variable with no value
yet is passed as ``Undefined``). ``break`` and ``continue`` become flags tested by the loop
and by the statements after them (a loop's ``else`` runs under ``if not`` the break flag);
``return`` inside an ``if`` becomes an assignment followed by one ``return`` after it;
``return`` inside a loop sets the returned value and a flag and breaks, and the loop is
followed by ``if flag: return value``.

The source must be readable (``inspect.getsource``: files, IPython and notebook cells); a
function whose source is not readable runs unconverted, and an error about Python control flow
on a Tensor then names it and says why.
"""

from __future__ import annotations

import ast
import builtins
import copy
import functools
import inspect
import os
import textwrap
import types
from collections.abc import Callable, Iterable
from typing import Any

from ember._executor import state
from ember.graph.control_flow import Undefined, switch, switch_layer, traced, truth, while_loop
from ember.graph.tracer import UNCONVERTED, GraphCompileError
from ember.ops.primitive import user_frame

_EMBER_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep

__all__ = ["convert"]

_PREFIX = "__ember_"
_HELPERS = f"{_PREFIX}cf__"
#: Variables the rewriting adds that flow like the user's (the others name its functions).
_CARRIED = tuple(f"{_PREFIX}{kind}_" for kind in ("ret", "break", "continue"))
_CONTROL = (ast.If, ast.While, ast.For, ast.IfExp, ast.BoolOp, ast.Raise)
#: code object -> the factory of the converted function, or None
_CACHE: dict[types.CodeType, Callable[..., Any] | None] = {}


# -- the helpers the converted code calls ------------------------------------------------------
def ld(read: Callable[[], Any], name: str) -> Any:
    """A variable's value, or ``Undefined`` while it has none."""
    try:
        return read()
    except NameError:
        return Undefined(name)


def if_stmt(test: Any, true_fn: Callable[..., tuple], false_fn: Callable[..., tuple],
            init: tuple, names: tuple[str, ...]) -> tuple:
    return tuple(switch(truth(test), [false_fn, true_fn], init, names))


def if_exp(test: Any, true_fn: Callable[[], Any], false_fn: Callable[[], Any]) -> Any:
    return switch(truth(test), [false_fn, true_fn], ())


def while_stmt(test_fn: Callable[..., Any], body_fn: Callable[..., tuple], init: tuple,
               names: tuple[str, ...]) -> tuple:
    return tuple(while_loop(test_fn, body_fn, init, names))


class TensorRange:
    """``range(start, stop, step)`` with a traced Tensor among its bounds (a Python step)."""

    def __init__(self, start: Any, stop: Any, step: Any) -> None:
        if not isinstance(step, int) or step == 0:
            raise ValueError(f"range over a Tensor: the step must be a non-zero Python int, "
                             f"but got {step!r}")
        self.start, self.stop, self.step = start, stop, step


def range_(*args: Any) -> Any:
    """``range(...)``, or a :class:`TensorRange` when a bound is a traced Tensor."""
    if not any(traced(a) for a in args):
        return range(*(int(a) for a in args))
    start, stop, step = (0, args[0], 1) if len(args) == 1 else (*args, 1)[:3]
    return TensorRange(start, stop, step)


def for_stmt(iterable: Any, extra_test: Callable[..., Any] | None,
             body_fn: Callable[..., tuple], init: tuple, names: tuple[str, ...]) -> tuple:
    """``for item in iterable: vals = body_fn(item, *vals)``, stopped early when
    ``extra_test(*vals)`` (the loop's ``break`` flag) is false."""
    if isinstance(iterable, TensorRange):
        r = iterable

        def test(i: Any, *vals: Any) -> Any:
            more = i < r.stop if r.step > 0 else i > r.stop
            return and_(lambda: more, lambda: extra_test(*vals)) if extra_test else more

        def body(i: Any, *vals: Any) -> tuple:
            return (i + r.step, *body_fn(i, *vals))

        from ember.common.tensor import Tensor

        like = r.start if traced(r.start) else r.stop
        start = r.start if traced(r.start) else Tensor(r.start, like.dtype)
        return tuple(while_loop(test, body, (start, *init), ("<range>", *names))[1:])
    vals = tuple(init)
    for item in iterable:
        test = extra_test(*vals) if extra_test else True
        if traced(test):
            vals = tuple(switch(truth(test), [lambda *v: v, functools.partial(body_fn, item)],
                                vals, names))
        elif not test:
            break
        else:
            vals = tuple(body_fn(item, *vals))
    return vals


def and_(left: Callable[[], Any], right: Callable[[], Any]) -> Any:
    a = left()
    if traced(a):
        from ember.ops import functional as F

        return F.logical_and(truth(a), _as_bool(right()))
    return right() if a else a


def or_(left: Callable[[], Any], right: Callable[[], Any]) -> Any:
    a = left()
    if traced(a):
        from ember.ops import functional as F

        return F.logical_or(truth(a), _as_bool(right()))
    return a if a else right()


def not_(value: Any) -> Any:
    if traced(value):
        from ember.ops import functional as F

        return F.logical_not(truth(value))
    return not value


def in_(value: Any, seq: Any) -> Any:
    """``value in seq``; a Tensor in a tuple or list holding traced Tensors is, as in
    MindSpore, a bool Tensor: whether an item of the same shape and dtype equals it
    everywhere. Python numbers among the items compare too (MindSpore skips them), so that
    GRAPH_MODE agrees with PyNative."""
    from ember.common.tensor import Tensor

    if not (isinstance(value, Tensor) and isinstance(seq, tuple | list) and (
            traced(value) or any(traced(item) for item in seq))):
        return value in seq
    from ember.ops import functional as F

    found = Tensor(False)
    for item in seq:
        if isinstance(item, bool | int | float) or isinstance(item, Tensor) and (
                item.shape == value.shape and item.dtype == value.dtype):
            found = F.logical_or(F.reduce_all(F.equal(value, item)), found)
    return found


def _as_bool(value: Any) -> Any:
    if traced(value):
        return truth(value)
    from ember.common import dtype as mstype
    from ember.common.tensor import Tensor

    return Tensor(bool(value), mstype.bool_)


def getitem(value: Any, index: Any) -> Any:
    """``value[index]``; a tuple or list of cells indexed by a traced Tensor is
    ``switch_layer``."""
    if traced(index) and isinstance(value, tuple | list) and value and all(
            callable(v) for v in value):
        return switch_layer(index, list(value))
    return value[index]


class Super:
    """``super(...)`` in a converted function: as MindSpore's parser, an attribute the classes
    above do not define is read from the instance (``super().x`` where ``__init__`` set
    ``self.x``)."""

    __slots__ = ("_proxy",)

    def __init__(self, proxy: super) -> None:
        self._proxy = proxy

    def __getattr__(self, name: str) -> Any:
        try:
            return getattr(self._proxy, name)
        except AttributeError:
            return getattr(self._proxy.__self__, name)


def raising(exc: Any) -> Any:
    """What a ``raise`` statement raises: ``exc``, except in a branch or loop on a Tensor's
    value, which is traced for every value (so the ``raise`` cannot wait for the condition):
    there MindSpore 1.6's "Unsupported statement 'Raise'", as a GraphCompileError."""
    tracer = state.tracer
    if tracer is not None and tracer.nesting:
        raise GraphCompileError(
            f"Unsupported statement 'Raise'. At {user_frame()} it is in a branch or loop on a "
            f"Tensor's value, which the graph decides only when it runs ({exc!r:.80}). Check "
            "the condition on Python values (shapes, dtypes, constants), or run in "
            "PYNATIVE_MODE")
    return exc


def call(fn: Any) -> Any:
    """A function the converted code calls, converted in turn when it is the user's (Cells
    convert their own ``construct``)."""
    return convert(fn) if isinstance(fn, types.FunctionType | types.MethodType) else fn


#: Builtins the converted code calls as they are (``super`` becomes :class:`Super`).
_BUILTINS = frozenset(n for n in dir(builtins) if not n.startswith("_")) - {"super"}
_NAMESPACE = types.SimpleNamespace(call=call, getitem=getitem, ld=ld, super_=Super,
                                   raising=raising,
                                   if_stmt=if_stmt, if_exp=if_exp, while_stmt=while_stmt,
                                   for_stmt=for_stmt, range_=range_, and_=and_, or_=or_,
                                   not_=not_, in_=in_)


# -- converting a function ---------------------------------------------------------------------
def convert(fn: Any) -> Any:
    """``fn`` with its control flow converted, or ``fn`` itself when it has none to convert
    or its source cannot be read (``tracer.UNCONVERTED`` says why). Bound methods stay
    bound."""
    if isinstance(fn, types.MethodType):
        inner = convert(fn.__func__)
        return fn if inner is fn.__func__ else types.MethodType(inner, fn.__self__)
    if not isinstance(fn, types.FunctionType) or _HELPERS in fn.__code__.co_freevars or (
            fn.__code__.co_filename.startswith(_EMBER_DIR)):
        # not a function, converted already, or ember's own (no tensor branches): a wrapper
        # such as ms_function's carries its user's __module__, so the code's file decides
        return fn
    code = fn.__code__
    if code not in _CACHE:
        _CACHE[code], reason = _factory(fn)
        if reason:
            UNCONVERTED[code] = reason
    factory = _CACHE[code]
    if factory is None:
        return fn
    try:
        cells = [c.cell_contents for c in fn.__closure__ or ()]
    except ValueError:  # a free variable with no value yet: leave the function as it is
        return fn
    new = factory(_NAMESPACE, *cells)
    new.__defaults__, new.__kwdefaults__ = fn.__defaults__, fn.__kwdefaults__
    new.__wrapped__ = fn
    return new


def _factory(fn: types.FunctionType) -> tuple[Callable[..., Any] | None, str]:
    name = fn.__qualname__
    if fn.__name__ == "<lambda>":
        return None, ""
    try:
        source = textwrap.dedent(inspect.getsource(fn))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError) as exc:
        return None, (f"the source of {name} cannot be read ({type(exc).__name__}: {exc}), so "
                      "its control flow was not converted")
    func = tree.body[0] if tree.body else None
    if not isinstance(func, ast.FunctionDef) or func.name != fn.__name__:
        return None, f"the source of {name} is not a plain def, so it was not converted"
    if not any(isinstance(n, _CONTROL) or isinstance(n, ast.UnaryOp) and isinstance(
            n.op, ast.Not) or isinstance(n, ast.Call) and not (
            isinstance(n.func, ast.Name) and n.func.id in _BUILTINS) for n in ast.walk(func)):
        return None, ""  # nothing to convert: neither control flow nor calls of user code
    ast.increment_lineno(tree, fn.__code__.co_firstlineno - 1)  # the source's first line
    func.decorator_list = []
    owner = name.rsplit(".", 2)[-2] if "." in name else ""
    _Converter(owner, func.args).convert(func)
    freevars = list(fn.__code__.co_freevars)
    module = ast.Module(body=[_def(f"{_PREFIX}factory", [_HELPERS, *freevars],
                                   [func, ast.Return(ast.Name(func.name, ast.Load()))])],
                        type_ignores=[])
    ast.fix_missing_locations(module)
    for node in ast.walk(module):  # the factory's own lines take the def's
        if not hasattr(node, "lineno"):
            ast.copy_location(node, func)
    namespace: dict[str, Any] = {}
    exec(compile(module, fn.__code__.co_filename, "exec"), fn.__globals__, namespace)
    return namespace[f"{_PREFIX}factory"], ""


def _def(name: str, params: list[str], body: list[ast.stmt]) -> ast.FunctionDef:
    node = ast.FunctionDef(name=name, args=_arguments(params), body=body, decorator_list=[],
                           returns=None)
    if "type_params" in ast.FunctionDef._fields:  # Python 3.12+
        node.type_params = []
    return node


def _arguments(names: Iterable[str]) -> ast.arguments:
    return ast.arguments(posonlyargs=[], args=[ast.arg(n) for n in names], vararg=None,
                         kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])


# -- the rewriting -----------------------------------------------------------------------------
def _assigned(stmts: list[ast.stmt]) -> list[str]:
    """The names ``stmts`` assign (not inside nested functions or classes), in order; an
    item assignment ``x[i] = v`` assigns ``x`` (a Tensor's ``__setitem__`` gives it new
    values)."""
    found: dict[str, None] = {}

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found[node.name] = None
            return
        if isinstance(node, ast.Lambda):
            return
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found[node.id] = None
        if (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Name)):
            found[node.value.id] = None
        for child in ast.iter_child_nodes(node):
            visit(child)

    for s in stmts:
        visit(s)
    return [n for n in found if not n.startswith(_PREFIX) or n.startswith(_CARRIED)]


def _contains(stmts: list[ast.stmt], kinds: tuple[type, ...], loops: bool = True) -> bool:
    """Whether ``stmts`` contain a node of ``kinds`` (outside nested functions; outside
    nested loops too unless ``loops``)."""
    def visit(node: ast.AST) -> bool:
        if isinstance(node, kinds):
            return True
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            return False
        if not loops and isinstance(node, ast.While | ast.For):
            return False
        return any(visit(c) for c in ast.iter_child_nodes(node))

    return any(visit(s) for s in stmts)


def _always_returns(stmts: list[ast.stmt]) -> bool:
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, ast.Return):
        return True
    return isinstance(last, ast.If) and _always_returns(last.body) and _always_returns(
        last.orelse)


def _returns_to_breaks(stmts: list[ast.stmt], flag: str, result: str) -> list[ast.stmt]:
    """``return v`` (in ``stmts`` and in the branches of their ``if`` statements) as
    ``result = v``, ``flag = True`` and ``break``."""
    out: list[ast.stmt] = []
    for s in stmts:
        if isinstance(s, ast.Return):
            value = s.value or ast.Constant(None)
            out += [ast.copy_location(ast.Assign([ast.Name(result, ast.Store())], value), s),
                    _set(flag, True, s), ast.copy_location(ast.Break(), s)]
            return out
        if isinstance(s, ast.If):
            s.body = _returns_to_breaks(s.body, flag, result)
            s.orelse = _returns_to_breaks(s.orelse, flag, result)
        out.append(s)
    return out


def _truncate(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """``stmts`` up to the first ``return`` (what follows it never runs)."""
    for i, s in enumerate(stmts):
        if isinstance(s, ast.Return):
            return stmts[:i + 1]
    return stmts


class _Converter:
    def __init__(self, owner: str, args: ast.arguments) -> None:
        self.owner = owner
        params = [*args.posonlyargs, *args.args]
        self.self_name = params[0].arg if params else None
        self.count = 0

    def fresh(self, kind: str) -> str:
        self.count += 1
        return f"{_PREFIX}{kind}_{self.count}"

    def convert(self, func: ast.FunctionDef) -> None:
        _Names(self).visit(func)
        func.body = self.block(self.lift_returns(self.loop_returns(func.body)))

    # -- return inside a loop -----------------------------------------------------------------
    def loop_returns(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        """A loop that returns (inner loops first): each ``return v`` in it becomes
        ``result = v`` with a flag set and a ``break``, and the loop is followed by
        ``if flag: return result``."""
        out: list[ast.stmt] = []
        for s in stmts:
            if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                out.append(s)
                continue
            for field in ("body", "orelse"):
                inner = getattr(s, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    setattr(s, field, self.loop_returns(inner))
            if not (isinstance(s, ast.While | ast.For) and not s.orelse
                    and _contains(s.body, (ast.Return,), loops=False)):
                out.append(s)
                continue
            flag, result = self.fresh("break"), self.fresh("ret")
            body = _returns_to_breaks(copy.deepcopy(s.body), flag, result)
            if _contains(body, (ast.Return,), loops=False):  # inside try/with: left as is
                out.append(s)
                continue
            s.body = body
            back = ast.If(ast.Name(flag, ast.Load()), [ast.Return(ast.Name(result, ast.Load()))],
                          [])
            out += [_set(flag, False, s), s, ast.copy_location(back, s)]
        return out

    # -- return inside if ---------------------------------------------------------------------
    def lift_returns(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        """Move the statements after an ``if`` that returns on some path into each side that
        goes on (a side that reaches the end returns None); then the ``if``, which returns on
        both sides, assigns the result and returns once."""
        stmts = _truncate(stmts)
        for i, s in enumerate(stmts):
            if not (isinstance(s, ast.If) and _contains([s], (ast.Return,), loops=False)):
                continue
            rest = stmts[i + 1:]
            s.body, s.orelse = _truncate(s.body), _truncate(s.orelse)
            if not _always_returns(s.body):  # what follows runs after the sides that go on
                s.body = s.body + copy.deepcopy(rest)
            if not _always_returns(s.orelse):
                s.orelse = s.orelse + rest
            s.body, s.orelse = self.lift_returns(s.body), self.lift_returns(s.orelse)
            for branch in (s.body, s.orelse):  # a side that still goes on ends the function
                if not _always_returns(branch):
                    branch.append(ast.copy_location(ast.Return(ast.Constant(None)), s))
            result = self.fresh("ret")
            self.assign_returns(s, result)
            back = ast.copy_location(ast.Return(ast.Name(result, ast.Load())), s)
            return [*stmts[:i], s, back]
        return stmts

    def assign_returns(self, node: ast.If, result: str) -> None:
        for branch in (node.body, node.orelse):
            last = branch[-1]
            if isinstance(last, ast.Return):
                value = last.value or ast.Constant(None)
                branch[-1] = ast.copy_location(
                    ast.Assign([ast.Name(result, ast.Store())], value), last)
            else:
                self.assign_returns(last, result)

    # -- statements ---------------------------------------------------------------------------
    def block(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for s in stmts:
            out.extend(self.stmt(s))
        return out

    def stmt(self, s: ast.stmt) -> list[ast.stmt]:
        if isinstance(s, ast.Raise) and s.exc is not None:
            s.exc = ast.copy_location(_helper("raising", s.exc), s.exc)
            return [s]
        if isinstance(s, ast.If) and not _contains(
                [s], (ast.Return, ast.Break, ast.Continue), loops=False):
            return self.if_stmt(s)
        if isinstance(s, ast.While | ast.For) and not _contains(
                s.body, (ast.Return, ast.Global, ast.Nonlocal, ast.Yield)) and not _contains(
                s.orelse, (ast.Return, ast.Break, ast.Continue), loops=False):
            return self.loop(s)
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(s, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt) and not (
                    isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)):
                setattr(s, field, self.block(inner))
        return [s]

    def function(self, name: str, params: list[str], body: list[ast.stmt],
                 returns: list[str], at: ast.AST) -> ast.FunctionDef:
        return ast.copy_location(
            _def(name, params, [*body, ast.Return(_tuple(returns, ast.Load()))]), at)

    def if_stmt(self, s: ast.If) -> list[ast.stmt]:
        names = _assigned([*s.body, *s.orelse])
        true_fn, false_fn = self.fresh("if_true"), self.fresh("if_false")
        call = _helper("if_stmt", s.test, ast.Name(true_fn, ast.Load()),
                       ast.Name(false_fn, ast.Load()), _loads(names), _strings(names))
        return [self.function(true_fn, names, self.block(s.body) or [ast.Pass()], names, s),
                self.function(false_fn, names, self.block(s.orelse) or [ast.Pass()], names, s),
                _assign(names, call, s)]

    def loop(self, s: ast.While | ast.For) -> list[ast.stmt]:
        flag = self.fresh("break") if _contains(s.body, (ast.Break,), loops=False) else None
        skip = self.fresh("continue") if _contains(s.body, (ast.Continue,), loops=False) else None
        body = self.lower_jumps(copy.deepcopy(s.body), flag, skip)
        if _contains(body, (ast.Break, ast.Continue), loops=False):  # inside try/with: as is
            s.body = self.block(s.body)
            return [s]
        if skip:
            body = [_set(skip, False, s), *body]
        head: list[ast.stmt] = [_set(flag, False, s)] if flag else []
        is_for = isinstance(s, ast.For)
        item = self.fresh("item")
        if is_for:
            body = [ast.copy_location(ast.Assign([s.target], ast.Name(item, ast.Load())), s),
                    *body]
        names = _assigned(body)
        if flag and flag not in names:
            names.append(flag)
        converted = self.block(body)
        body_fn = self.fresh("loop_body")
        not_broken = _helper("not_", ast.Name(flag, ast.Load())) if flag else None
        if is_for:
            test_fn = None
            if not_broken is not None:
                test_fn = ast.Lambda(_arguments(names), not_broken)
            iterable = s.iter
            if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and (
                    iterable.func.id == "range") and not iterable.keywords:
                iterable = _helper("range_", *iterable.args)
            call = _helper("for_stmt", iterable, test_fn or ast.Constant(None),
                           ast.Name(body_fn, ast.Load()), _loads(names), _strings(names))
            fn = self.function(body_fn, [item, *names], converted, names, s)
        else:
            test = s.test if not_broken is None else _helper(
                "and_", ast.Lambda(_arguments([]), not_broken),
                ast.Lambda(_arguments([]), s.test))
            call = _helper("while_stmt", ast.Lambda(_arguments(names), test),
                           ast.Name(body_fn, ast.Load()), _loads(names), _strings(names))
            fn = self.function(body_fn, names, converted, names, s)
        tail = copy.deepcopy(s.orelse)  # ``else``: runs unless the loop breaks
        if tail and flag:
            guard = _Names(self).visit(ast.UnaryOp(ast.Not(), ast.Name(flag, ast.Load())))
            tail = [ast.copy_location(ast.If(guard, tail, []), s.orelse[0])]
        return [*head, fn, _assign(names, call, s), *self.block(tail)]

    def lower_jumps(self, stmts: list[ast.stmt], flag: str | None,
                    skip: str | None) -> list[ast.stmt]:
        """``break``/``continue`` of this loop as flags; the statements after one that may
        set a flag run under ``if not flag``."""
        out: list[ast.stmt] = []
        for i, s in enumerate(stmts):
            if isinstance(s, ast.Break):
                out.append(_set(flag, True, s))
                return out
            if isinstance(s, ast.Continue):
                out.append(_set(skip, True, s))
                return out
            if isinstance(s, ast.If) and _contains([s], (ast.Break, ast.Continue), loops=False):
                s.body = self.lower_jumps(s.body, flag, skip)
                s.orelse = self.lower_jumps(s.orelse, flag, skip)
                out.append(s)
                rest = self.lower_jumps(stmts[i + 1:], flag, skip)
                if rest:
                    flags = [ast.Name(f, ast.Load()) for f in (flag, skip) if f]
                    test = flags[0] if len(flags) == 1 else ast.BoolOp(ast.Or(), flags)
                    guard = _Names(self).visit(ast.UnaryOp(ast.Not(), test))
                    out.append(ast.copy_location(ast.If(guard, rest, []), s))
                return out
            out.append(s)
        return out


class _Names(ast.NodeTransformer):
    """Expression rewrites: ``a if c else b``, ``and``/``or``/``not``, ``in``, ``super()``
    with its arguments spelled out (a :class:`Super`), and private names mangled as the class
    body would have."""

    def __init__(self, converter: _Converter) -> None:
        self.c = converter

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self.generic_visit(node)
        return ast.copy_location(_helper("if_exp", node.test, _thunk(node.body),
                                         _thunk(node.orelse)), node)

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        kind = "and_" if isinstance(node.op, ast.And) else "or_"
        result = node.values[-1]
        for value in reversed(node.values[:-1]):
            result = _helper(kind, _thunk(value), _thunk(result))
        return ast.copy_location(result, node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return ast.copy_location(_helper("not_", node.operand), node)
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if len(node.ops) != 1 or not isinstance(node.ops[0], ast.In | ast.NotIn):
            return node
        found = _helper("in_", node.left, node.comparators[0])
        if isinstance(node.ops[0], ast.NotIn):
            found = _helper("not_", found)
        return ast.copy_location(found, node)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id == "super":
            if not node.args and self.c.self_name:
                node.args = [ast.Name("__class__", ast.Load()),
                             ast.Name(self.c.self_name, ast.Load())]
            return ast.copy_location(_helper("super_", node), node)
        if not (isinstance(node.func, ast.Name) and node.func.id in _BUILTINS):
            node.func = ast.copy_location(_helper("call", node.func), node.func)
        return node

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.ctx, ast.Load) and not isinstance(node.slice, ast.Slice | ast.Tuple):
            return ast.copy_location(_helper("getitem", node.value, node.slice), node)
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        node.attr = self.mangle(node.attr)
        return node

    def visit_Name(self, node: ast.Name) -> ast.AST:
        node.id = self.mangle(node.id)
        return node

    def mangle(self, name: str) -> str:
        owner = self.c.owner.lstrip("_")
        if owner and name.startswith("__") and not name.endswith("__") and not name.startswith(
                _PREFIX):
            return f"_{owner}{name}"
        return name


# -- small AST builders ------------------------------------------------------------------------
def _helper(name: str, *args: ast.expr) -> ast.Call:
    return ast.Call(ast.Attribute(ast.Name(_HELPERS, ast.Load()), name, ast.Load()),
                    list(args), [])


def _thunk(expr: ast.expr) -> ast.Lambda:
    return ast.Lambda(_arguments([]), expr)


def _tuple(names: list[str], ctx: ast.expr_context) -> ast.Tuple:
    return ast.Tuple([ast.Name(n, ctx) for n in names], ctx)


def _loads(names: list[str]) -> ast.Tuple:
    return ast.Tuple([_helper("ld", _thunk(ast.Name(n, ast.Load())), ast.Constant(n))
                      for n in names], ast.Load())


def _strings(names: list[str]) -> ast.Tuple:
    return ast.Tuple([ast.Constant(n) for n in names], ast.Load())


def _assign(names: list[str], value: ast.expr, at: ast.AST) -> ast.stmt:
    target = _tuple(names, ast.Store())
    stmt = ast.Assign([target], value) if names else ast.Expr(value)
    return ast.copy_location(stmt, at)


def _set(name: str, value: bool, at: ast.AST) -> ast.stmt:
    return ast.copy_location(ast.Assign([ast.Name(name, ast.Store())], ast.Constant(value)), at)
