"""The backend contract: every hook a device plugin may implement.

A backend is a module registered under the entry-point group ``ember.backends``, with the
entry point's name equal to its ``device_target`` in lower case::

    [project.entry-points."ember.backends"]
    cpu = "ember_cpu.plugin"

The module implements some of the hooks below, each decorated with :data:`ember.backend.hookimpl`;
the core calls a plugin's hooks only for the device_targets it declares, and imports it only
when one of them is asked for (or to choose the default, or to list every backend).
Importing it must be cheap: heavy libraries (TensorFlow, ACL) are imported inside the hooks
that create executors, never at module level.

Pluggy is used for discovery, configuration and creating executors only. A primitive call in
PyNative mode does not go through a hook: the core asks for an executor once per
(device_target, mode) change and calls it directly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from ember.backend import BackendSpec

hookspec = pluggy.HookspecMarker("ember")


@hookspec
def ember_backends() -> list[BackendSpec]:
    """Declare the backends this plugin provides.

    Called once, when the core first discovers plugins. Return a list of
    :class:`ember.backend.BackendSpec`: the ``device_target`` served, the core API version the
    plugin was built for, its distribution name, its priority when the user sets no
    ``device_target``, and an availability check. Must not import heavy libraries.
    """


@hookspec(firstresult=True)
def ember_eager_executor(device_target: str, context: dict[str, Any]) -> Any:
    """Create the PyNative executor for ``device_target``, or return None if not yours.

    Called once per change of ``device_target``, ``mode`` or ``pynative_synchronize``, never
    per primitive call. ``context`` is a snapshot of the context's values. Return an executor
    object with:

    - ``kernel(primitive)``: a function of the backend's arrays (and the primitive's
      non-tensor inputs as Python values) returning one array, or a tuple for several
      outputs; called once per primitive instance. Raise ``ember.backend.MissingKernelError``
      for a primitive the backend does not run.
    - ``device``: where its arrays live; None means NumPy arrays in host memory. Otherwise
      an object with ``to_host(array)`` -> numpy.ndarray and ``from_host(ndarray)`` -> array,
      and optionally ``parameter_from_host(ndarray)`` -> the storage of a Parameter, which the
      in-place kernels (Assign, ApplyMomentum, ...) update (default: ``from_host``). A tensor
      moved to the device stays there.
    - ``to_host`` and ``from_host``, as the device's.
    - optionally ``name`` (for messages) and ``primitives``: the names it has kernels for
      (``python -m ember info --ops``).

    First non-None result wins.
    """


@hookspec(firstresult=True)
def ember_graph_executor(device_target: str, context: dict[str, Any]) -> Any:
    """Create the Graph-mode executor for ``device_target``, or return None if not yours.

    Called once per change of ``device_target``, ``mode`` or ``pynative_synchronize``. Return
    an object with ``device`` (as the PyNative executor's) and ``compile(graph)``, which turns
    an ``ember.graph.ir.Graph`` into a callable taking the arrays of ``graph.inputs`` then
    ``graph.params`` and returning a tuple with the arrays of the graph outputs that are
    Values. ``compile(graph, wrap=fn)`` (used while the profiler or the dump observe) calls
    ``fn(node, kernel)`` once per node and runs the kernel it returns in the node's place. Get
    kernels through ``ember.backend.resolve_kernel`` so that fallback_device_target applies.

    Control flow on tensor values arrives as nodes whose primitive holds subgraphs
    (``ember.graph.ir.subgraphs(node)``), which have no kernel: ``Switch`` (inputs: a
    one-element bool or integer index, then the branches' inputs; ``prim.branches``; a bool
    runs ``branches[1]`` when true, an integer is clamped into range) and ``WhileLoop``
    (inputs: ``prim.count`` carries, then the other inputs; ``prim.cond`` gives a one-element
    bool, ``prim.body`` the next carries; its outputs are the final carries, then, with
    ``prim.save`` (set when its gradient is taken), one stack per carry: its value at the start
    of each iteration, kept in a form of the backend's choosing) and ``ReverseScan`` (inputs:
    ``prim.count`` such stacks, then carries, then the other inputs; for each saved iteration,
    last first, ``prim.body`` maps that iteration's rows, the carries and the other inputs to
    the next carries; its outputs are the final carries). A subgraph reads only its own inputs
    and constants and returns all its outputs. First non-None result wins.
    """


@hookspec
def ember_context_changed(device_target: str, changes: dict[str, Any]) -> None:
    """Apply, or reject, context options before the core stores them.

    Called by ``set_context`` after the core has validated every value and before it stores
    any, with the new values of the keys the call sets and the ``device_target`` in effect
    after the call. Only the plugin of that device_target is called.
    Raise ``ValueError`` or ``RuntimeError`` with a message that names the key and what the
    backend accepts to reject the call: the core then stores nothing. A backend that is not
    in use yet should not import anything heavy here; it reads the context when first used.
    """


@hookspec(firstresult=True)
def ember_profiler_start(device_target: str, output_path: str) -> Any:
    """Start a profiling session on ``device_target``, or return None if not yours.

    Called by ``ember.profiler.Profiler.start()``. The core times every primitive itself (in
    PyNative through the executor's kernels, in GRAPH_MODE through the graph executor's
    ``compile(graph, wrap=...)``) and writes the trace and tables into ``output_path``. Return
    an object with ``synchronize``: None when a kernel has finished its work when it returns,
    else a function waiting for the device (called after each op, so its time covers the
    device's work); and ``stop()``, ending the session and returning the paths of any files
    of its own it wrote under ``output_path``. First non-None result wins.
    """


@hookspec(firstresult=True)
def ember_communicator(device_target: str) -> Any:
    """Create the world communicator for ``device_target``, or return None if not yours.

    Called by ``ember.communication.init()`` in each process of an MPI launch
    (``mpirun -n N``), once per process. Return an object whose collectives take and return
    the backend's arrays (those of its executors' ``device``), each a call that every process
    of the communicator makes, in the same order:

    - ``rank``, ``size``, ``local_rank``, ``local_size``: this process among all of them, and
      among those on its host;
    - ``group(ranks)`` -> a communicator of the processes ``ranks`` (world ranks, in the
      order of their ranks in the group), called by those processes only;
    - ``all_reduce(x, op)`` with ``op`` one of "sum", "max", "min", "prod";
      ``all_gather(x)`` (concatenated along axis 0); ``reduce_scatter(x, op)`` (the reduction
      of axis 0's ``size`` blocks, block ``rank`` kept); ``broadcast(x, root)`` (``root``'s
      ``x``: the others' give its shape and dtype); ``all_to_all(x, split_dim, concat_dim)``;
      ``neighbor_exchange(xs, send_ranks, recv_ranks, recv_specs)``: sends ``xs[i]`` to
      ``send_ranks[i]``, returns a tuple of the arrays received from ``recv_ranks``, of the
      (shape, numpy dtype) ``recv_specs``;
    - ``calls``: how many collectives it ran (for tests and benchmarks); ``release()`` frees a
      group's communicator; ``abort(code)`` ends every process of the launch (called when
      one dies of an uncaught exception, so that the others do not wait for it for ever).

    Raise ImportError when the library it needs is not installed, naming what to install.
    First non-None result wins.
    """
