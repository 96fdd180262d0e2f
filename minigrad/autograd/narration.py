"""What the autograd core tells a recorder: the events of minigrad.tracing.

Each call site first checks `tracing.active is not None`, so that nobody pays for
narration they do not listen to.  Recording only adds these events: the core runs
the same code with or without a recorder, so a picture of a recording shows what
the engine does when nobody watches.

Each event also says where it came from (`event.where`): the line of the engine
loop or of `Function.apply` that was running when it was emitted, found by
walking up Python's call stack only while a recorder listens.
"""
import linecache
import os
import sys

from .. import tracing
from ..tracing import Where, describe, ident

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep   # minigrad/

_shown = None        # {code object: name} of the functions a recording points at


def where():
    """The line of the engine loop or of Function.apply running now (the innermost of
    them: Function.apply inside a backward under create_graph), or None."""
    global _shown
    if _shown is None:      # at the first event: engine.py and function.py import this
                            # module, so it cannot import them when it is loaded
        from .engine import run_backward
        from .function import Function
        _shown = {function.__code__: function.__qualname__
                  for function in (run_backward, Function.apply.__func__)}
    frame = sys._getframe(1)
    while frame is not None:
        name = _shown.get(frame.f_code)
        if name is not None:
            return Where(frame.f_code.co_filename, frame.f_lineno, name,
                         frame.f_code.co_firstlineno)
        frame = frame.f_back
    return None


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


def emit(kind, **data):
    """tracing.emit, with where the event came from."""
    tracing.emit(kind, where(), **data)


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


def _short_name(node):
    return node.name().split("::")[-1]


# --- forward: Function.apply and saved tensors ------------------------------------------

def node_connected(node):
    """Steps 1 and 2 of Function.apply, as two events: the node made and numbered, then
    its edges (one per tensor input) and the leaves it meets."""
    found = where()
    tracing.emit("apply_node_made", _at_statement(found, "node = cls._node_class()"),
                 node=ident(node), name=node.name(), sequence_nr=node._sequence_nr,
                 function=node._function_cls.__name__)
    leaves = {ident(n): describe(n.variable)
              for n, _ in node.next_functions if n is not None and hasattr(n, "variable")}
    tracing.emit("apply_edges_connected", _at_statement(found, "_connect(node, args)"),
                 node=ident(node), inputs=[(ident(n), nr) for n, nr in node.next_functions],
                 leaves=leaves)


def node_created(node, outputs):
    """Steps 3 and 4 of Function.apply, as two events: forward has run (grad mode off;
    what it returned, how many tensors it asked to save), then the outputs attached: the
    new node, its edges, and the leaves it meets for the first time."""
    new_style = node._function_cls.setup_context.__qualname__ != "Function.setup_context"
    statement = "cls.forward(*args)" if new_style else "cls.forward(node, *args)"
    tracing.emit("apply_forward_ran", _at_statement(where(), statement),
                 node=ident(node), outputs=[describe(o) for o in outputs if hasattr(o, "_data")],
                 to_save=sum(t is not None and not t._wrapped_number for t in node.to_save))
    leaves = {ident(n): describe(n.variable)
              for n, _ in node.next_functions if n is not None and hasattr(n, "variable")}
    emit("node_created", node=ident(node), name=node.name(), sequence_nr=node._sequence_nr,
         inputs=[(ident(n), nr) for n, nr in node.next_functions],
         outputs=[describe(o) for o in outputs if hasattr(o, "_data")], leaves=leaves,
         caller=called_from())


def tensor_saved(node, slot, tensor, is_output):
    emit("tensor_saved", node=ident(node), slot=slot, tensor=describe(tensor),
         version=tensor._version, nbytes=int(tensor._data.nbytes), is_output=is_output,
         wrapped_number=tensor._wrapped_number)


def tensor_packed(node, slot, packed):
    emit("tensor_packed", node=ident(node), slot=slot, packed_nbytes=tracing.packed_nbytes(packed))


def version_checked(node, saved, unchanged):
    """A saved tensor's version compared with the one it was saved at (then unpacked)."""
    emit("version_check", node=ident(node), slot=saved.slot, saved_version=saved.version,
         current_version=saved.version_counter.value, passed=unchanged)
    if unchanged:
        tensor_unpacked(node, saved.slot)


def number_unpacked(node, slot):
    """A saved number: version 0 it was, version 0 it is (NOTE [saved numbers])."""
    emit("version_check", node=ident(node), slot=slot, saved_version=0, current_version=0,
         passed=True)
    tensor_unpacked(node, slot)


def tensor_unpacked(node, slot):
    emit("tensor_unpacked", node=ident(node), slot=slot)


def tensor_freed(node, slot, saved):
    """A slot freed: `saved` is its SavedTensor, or the array of a saved number."""
    emit("tensor_freed", node=ident(node), slot=slot, nbytes=int(saved.nbytes))


def freed_tensor_asked(node, slot):
    """Backward needs a saved tensor that was freed (the "second time" error follows)."""
    emit("saved_tensor_freed_access", node=ident(node), slot=slot)


# --- backward: the engine -------------------------------------------------------------------

def backward_started(roots, dependencies):
    emit("backward_started", roots=[ident(n) for (n, _), _ in roots],
         dependencies={ident(node): count for node, count in dependencies.items()})


def node_started(node, grads, ready):
    """What flows into the node, and what else is ready (with priorities)."""
    waiting = [(ident(n), n._sequence_nr) for _, _, n in sorted(ready)]
    emit("node_started", node=ident(node), name=_short_name(node),
         grads_in=[describe(g) for g in grads], ready=waiting)


def node_finished(node, grad_inputs, dependencies):
    """What flows out along each edge, and the counts it decremented."""
    counts = {ident(n): dependencies[n] for n, _ in node.next_functions if n is not None}
    emit("node_finished", node=ident(node), name=_short_name(node),
         grads_out=[describe(g) for g in grad_inputs],
         edges=[(ident(n), nr) for n, nr in node.next_functions], dependencies=counts)


def hook_called(node, kind):
    emit("hook_called", node=ident(node), hook=kind)


def grad_accumulated(node, leaf):
    emit("grad_accumulated", node=ident(node), leaf=ident(leaf), grad=describe(leaf._grad))


def backward_finished():
    emit("backward_finished")
