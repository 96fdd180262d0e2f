"""What the autograd core tells a recorder: the events of minigrad.tracing.

While `minigrad.tracing.record()` runs, its Trace is plugged into the core as
`seams.recorder`, and the core calls one of the methods below at each step worth
showing, behind `if seams.recorder is not None`: nobody pays for narration they do not
listen to.  Recording only adds these calls: the core runs the same code with or without
a recorder, so a picture of a recording shows what the engine does when nobody watches.

Each event also says where it came from (`event.where`): the line of the engine
loop or of `Function.apply` that was running when it was emitted, found by
walking up Python's call stack only while a recorder listens.
"""
import itertools
import linecache
import os
import sys
from collections import namedtuple

from ..core import seams
from ..core.function import Function
from ..core.graph import run_backward

SMALL = 64                        # tensors up to this many elements keep their values
_idents = itertools.count(1)

Where = namedtuple("Where", "file line function first_line")

# the functions a recording points at: {code object: name}
_SHOWN = {function.__code__: function.__qualname__
          for function in (run_backward, Function.apply.__func__)}
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep   # minigrad/


def where():
    """The line of the engine loop or of Function.apply running now (the innermost of
    them: Function.apply inside a backward under create_graph), or None."""
    frame = sys._getframe(1)
    while frame is not None:
        name = _SHOWN.get(frame.f_code)
        if name is not None:
            return Where(frame.f_code.co_filename, frame.f_lineno, name,
                         frame.f_code.co_firstlineno)
        frame = frame.f_back
    return None


def ident(obj):
    """A small integer naming a node or tensor, stable for the object's life."""
    if obj is None:
        return None
    number = obj.__dict__.get("_trace_id")
    if number is None:
        number = obj.__dict__["_trace_id"] = next(_idents)
    recorder = seams.recorder
    if recorder is not None and hasattr(obj, "name") and callable(obj.name):
        recorder.names[number] = obj.name().split("::")[-1]
        recorder.nodes[number] = obj
    return number


def describe(tensor):
    """A tensor as events carry it: id, shape, dtype, and small values."""
    if tensor is None:
        return None
    data = tensor._data
    values = tensor.tolist() if data.size <= SMALL else None
    return {"id": ident(tensor), "shape": tuple(data.shape), "dtype": str(tensor.dtype),
            "values": values}


def packed_nbytes(packed):
    """The bytes a saved_tensors_hooks pack result holds in memory: a tensor's or an
    array's `nbytes`; 0 for anything else (a file path, a handle: kept elsewhere).

    Example::

        >>> import numpy as np
        >>> packed_nbytes(np.zeros(3, dtype=np.float16)), packed_nbytes("/tmp/x.npy")
        (6, 0)
    """
    data = getattr(packed, "_data", packed)          # a minigrad Tensor keeps its array in _data
    nbytes = getattr(data, "nbytes", None)
    return int(nbytes) if isinstance(nbytes, int) else 0


def called_from():
    """The line outside minigrad that led here: the student's line that used the op (a
    `Where`), or None when minigrad was called from nowhere else."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
    if frame is None:
        return None
    return Where(frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name,
                 frame.f_code.co_firstlineno)


def _at_statement(found, statement):
    """`found` (a Where in Function.apply) moved to the first line of that function that
    holds `statement`: the step an event of apply's is about, rather than the line that
    narrates it.  Unchanged when no line holds it."""
    if found is None:
        return None
    lines = linecache.getlines(found.file)
    for number in range(found.first_line, min(found.line, len(lines)) + 1):
        if statement in lines[number - 1]:
            return found._replace(line=number)
    return found


def _leaves(node):
    """The leaves a node's edges meet: {id: tensor as events carry it}."""
    return {ident(n): describe(n.variable)
            for n, _ in node.next_functions if n is not None and hasattr(n, "variable")}


def _short_name(node):
    return node.name().split("::")[-1]


class Narration:
    """The events the core emits, as methods of the recorder (minigrad.tracing.Trace):
    each call adds one event, with where in the engine it came from."""

    def emit(self, kind, where=None, **data):
        raise NotImplementedError

    def _emit(self, kind, **data):
        self.emit(kind, where(), **data)

    # --- forward: Function.apply and saved tensors --------------------------------------
    def node_connected(self, node):
        """Steps 1 and 2 of Function.apply, as two events: the node made and numbered, then
        its edges (one per tensor input) and the leaves it meets."""
        found = where()
        self.emit("apply_node_made", _at_statement(found, "node = cls._backward_cls()"),
                  node=ident(node), name=node.name(), sequence_nr=node._sequence_nr,
                  function=node._function_cls.__name__)
        self.emit("apply_edges_connected", _at_statement(found, "edge = arg._gradient_edge()"),
                  node=ident(node), inputs=[(ident(n), nr) for n, nr in node.next_functions],
                  leaves=_leaves(node))

    def node_created(self, node, outputs):
        """Steps 3 and 4 of Function.apply, as two events: forward has run (grad mode off;
        what it returned, how many tensors it asked to save), then the outputs attached: the
        new node, its edges, and the leaves it meets for the first time."""
        found = where()
        described = [describe(o) for o in outputs if hasattr(o, "_data")]   # (both events)
        self.emit("apply_forward_ran",
                  _at_statement(found, "outputs = cls._run_forward(node, args)"),
                  node=ident(node), outputs=described,
                  to_save=sum(t is not None and not t._wrapped_number for t in node.to_save))
        self.emit("node_created", found, node=ident(node), name=node.name(),
                  sequence_nr=node._sequence_nr,
                  inputs=[(ident(n), nr) for n, nr in node.next_functions],
                  outputs=described, leaves=_leaves(node), caller=called_from())

    def tensor_saved(self, node, slot, tensor, is_output):
        self._emit("tensor_saved", node=ident(node), slot=slot, tensor=describe(tensor),
                   version=tensor._version, nbytes=int(tensor._data.nbytes),
                   is_output=is_output, wrapped_number=tensor._wrapped_number)

    def tensor_packed(self, node, slot, packed):
        self._emit("tensor_packed", node=ident(node), slot=slot,
                   packed_nbytes=packed_nbytes(packed))

    def version_checked(self, node, saved, unchanged):
        """A saved tensor's version compared with the one it was saved at (then unpacked)."""
        self._emit("version_check", node=ident(node), slot=saved.slot,
                   saved_version=saved.version, current_version=saved.version_counter.value,
                   passed=unchanged)
        if unchanged:
            self.tensor_unpacked(node, saved.slot)

    def tensor_unpacked(self, node, slot):
        self._emit("tensor_unpacked", node=ident(node), slot=slot)

    def tensor_freed(self, node, slot, saved):
        """A slot freed: `saved` is its SavedTensor."""
        self._emit("tensor_freed", node=ident(node), slot=slot, nbytes=int(saved.nbytes))

    def freed_tensor_asked(self, node, slot):
        """Backward needs a saved tensor that was freed (the "second time" error follows)."""
        self._emit("saved_tensor_freed_access", node=ident(node), slot=slot)

    # --- backward: the engine -------------------------------------------------------------
    def backward_started(self, roots, dependencies):
        self._emit("backward_started", roots=[ident(n) for (n, _), _ in roots],
                   dependencies={ident(node): count for node, count in dependencies.items()})

    def node_started(self, node, grads, ready):
        """What flows into the node, and what else is ready (with priorities)."""
        waiting = [(ident(n), n._sequence_nr) for _, _, n in sorted(ready)]
        self._emit("node_started", node=ident(node), name=_short_name(node),
                   grads_in=[describe(g) for g in grads], ready=waiting)

    def node_finished(self, node, grad_inputs, dependencies):
        """What flows out along each edge, and the counts it decremented."""
        counts = {ident(n): dependencies[n] for n, _ in node.next_functions if n is not None}
        self._emit("node_finished", node=ident(node), name=_short_name(node),
                   grads_out=[describe(g) for g in grad_inputs],
                   edges=[(ident(n), nr) for n, nr in node.next_functions],
                   dependencies=counts)

    def hook_called(self, node, kind):
        self._emit("hook_called", node=ident(node), hook=kind)

    def grad_accumulated(self, node, leaf):
        self._emit("grad_accumulated", node=ident(node), leaf=ident(leaf),
                   grad=describe(leaf._grad))

    def backward_finished(self):
        self._emit("backward_finished")
