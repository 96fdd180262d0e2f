"""Reentrant backward: a backward called while another runs (a Function's backward
that calls backward or autograd.grad itself).

NOTE [reentrant backward]: each nested backward runs inside the one that called it,
so its Python frames pile up: 2,000 nested levels would pass Python's recursion
limit.  PyTorch's engine hands a nested backward to another thread once 60 run on
one; here the engine hands over every DEPTH-th nested level (graph.py:
`backward`) to `on_fresh_thread`, a new thread with a stack of its own, while
the calling thread waits.  The new thread starts where the caller stands: the same
grad mode (which is per thread: grad_mode.py) and context variables (numpy's error
state).
"""
import contextvars
import threading

from .grad_mode import state as modes

DEPTH = 20                    # backwards nested on one thread's stack
HANDED_OVER = None            # counts as a running backward in the new thread (see below)


def on_fresh_thread(running, function, *args):
    """function(*args) on a new thread in this thread's modes: its result, or its
    exception raised here.  The new thread counts one running backward more in `running`
    (the engine's stack of graph tasks), so the engine runs this level there instead of
    handing it over again."""
    copied, context, outcome = dict(vars(modes)), contextvars.copy_context(), {}

    def work():
        vars(modes).update(copied)
        running.append(HANDED_OVER)
        try:
            outcome["result"] = context.run(function, *args)
        except BaseException as error:           # noqa: BLE001 - raised in the caller
            outcome["error"] = error
        finally:
            running.pop()

    thread = threading.Thread(target=work, name="minigrad-reentrant-backward")
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome.pop("error")
    return outcome["result"]
