"""Run a student's answer with a time limit, capturing whatever it raises.

A check must never hang or crash the kernel, whatever the answer does.  On
the main thread of a Unix process, `signal.setitimer` interrupts a looping
answer with `TimeLimitExceeded` (a BaseException, so an `except Exception:`
in the answer cannot swallow it; the alarm repeats every 0.25 s, which gives
a loop around a bare `except:` more chances to be stopped, though no
guarantee).  Elsewhere (Windows, a worker thread) the answer runs in a daemon
thread; after the limit we ask CPython to raise `TimeLimitExceeded` in that
thread and stop waiting for it either way.
"""
import contextlib
import ctypes
import signal
import threading

TIME_LIMIT = 5.0          # seconds for one check, the student's code included
_REPEAT = 0.25            # the alarm fires again every 0.25 s until the answer stops


class TimeLimitExceeded(BaseException):
    """Raised inside an answer that ran past the time limit."""


class Outcome:
    """How a run ended: `value` (finished), `error` (raised), or `timed_out`."""

    __slots__ = ("value", "error", "timed_out")

    def __init__(self, value=None, error=None, timed_out=False):
        self.value, self.error, self.timed_out = value, error, timed_out


def run_limited(func, seconds=TIME_LIMIT):
    """Call `func()`; return an Outcome instead of raising or running forever."""
    with _autograd_state_kept():
        if hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
            return _run_with_alarm(func, seconds)
        return _run_in_thread(func, seconds)


@contextlib.contextmanager
def _autograd_state_kept():
    """minigrad's switches as they were before the answer ran: grad mode, anomaly mode,
    forward AD's level, the saved-tensor hooks, the recorder and numpy's error state.
    An answer may leave one switched (set_grad_enabled(False) and no way back), and the
    time limit's alarm may land anywhere, even between a `with` block's setting of a
    switch and its undoing; the student's kernel must not inherit either."""
    from .. import trace
    from ..autograd import anomaly, engine, forward_ad, forward_mode, grad_mode, saved_tensor
    switches = (grad_mode._state, anomaly._state, forward_ad._state)
    stacks = (engine._running_tasks, saved_tensor._saved_tensors_hooks_stack,
              saved_tensor._hooks_disabled, forward_ad._dual_tensors)
    kept = ([dict(d) for d in switches], [list(s) for s in stacks], trace.active)
    numpy_errors = forward_mode._numpy_errors
    numpy_state = numpy_errors.get() if numpy_errors is not None else None
    try:
        yield
    finally:
        for switch, values in zip(switches, kept[0]):
            switch.clear()
            switch.update(values)
        for stack, values in zip(stacks, kept[1]):
            stack[:] = values
        trace.active = kept[2]
        if numpy_errors is not None:
            numpy_errors.set(numpy_state)


def _run_with_alarm(func, seconds):
    def on_alarm(signum, frame):
        raise TimeLimitExceeded()

    previous_handler = signal.signal(signal.SIGALRM, on_alarm)
    previous_timer = signal.setitimer(signal.ITIMER_REAL, seconds, _REPEAT)
    try:
        try:
            return Outcome(value=func())
        except TimeLimitExceeded:
            return Outcome(timed_out=True)
        except BaseException as error:        # noqa: BLE001 — the answer may raise anything
            return Outcome(error=error)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except TimeLimitExceeded:                 # the alarm fired as the answer returned
        return Outcome(timed_out=True)
    finally:
        signal.signal(signal.SIGALRM, previous_handler)
        if previous_timer[0] > 0:             # someone else's alarm: give it back
            signal.setitimer(signal.ITIMER_REAL, *previous_timer)


def _run_in_thread(func, seconds):
    box = {}

    def target():
        try:
            box["outcome"] = Outcome(value=func())
        except TimeLimitExceeded:
            box["outcome"] = Outcome(timed_out=True)
        except BaseException as error:        # noqa: BLE001
            box["outcome"] = Outcome(error=error)

    worker = threading.Thread(target=target, name="minigrad-check", daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        _interrupt(worker)
        worker.join(0.5)
        return Outcome(timed_out=True)
    return box.get("outcome", Outcome(timed_out=True))


def _interrupt(worker):
    """Ask CPython to raise TimeLimitExceeded in `worker` (best effort: pure-Python loops)."""
    try:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(
            ctypes.c_ulong(worker.ident), ctypes.py_object(TimeLimitExceeded))
    except Exception:      # noqa: BLE001 — not CPython: the daemon thread is abandoned
        pass
