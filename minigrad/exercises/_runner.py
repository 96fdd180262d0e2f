"""Run a student's answer with a time limit, capturing whatever it raises.

A check must never hang or crash the kernel, whatever the answer does.  On
the main thread of a Unix process, `signal.setitimer` interrupts a looping
answer with `TimeLimitExceeded` (a BaseException, so an `except Exception:`
in the answer cannot swallow it; the alarm repeats every 0.25 s, which gives
a loop around a bare `except:` more chances to be stopped, though no
guarantee).  Elsewhere (Windows, a worker thread) the answer runs in a daemon
thread; after the limit we ask CPython to raise `TimeLimitExceeded` in that
thread and stop waiting for it either way.  Where Python can start no thread
and has no timer (Pyodide in JupyterLite: the browser's Python), the answer
runs as it is, with no limit: `Outcome.unlimited` says so.

A check may run inside another one (an answer that calls `check`): the inner
one ends no later than the outer one, and when the outer one's time is up it
stops the outer answer too, instead of catching the alarm meant for it.
"""
import signal
import threading
import time

TIME_LIMIT = 5.0          # seconds for one check, the student's code included
_REPEAT = 0.25            # the alarm fires again every 0.25 s until the answer stops

_running = threading.local()    # .deadline: when the check running in this thread must end


class TimeLimitExceeded(BaseException):
    """Raised inside an answer that ran past the time limit."""


class Outcome:
    """How a run ended: `value` (finished), `error` (raised), or `timed_out`;
    `unlimited` when nothing could have stopped it."""

    __slots__ = ("value", "error", "timed_out", "unlimited")

    def __init__(self, value=None, error=None, timed_out=False, unlimited=False):
        self.value, self.error, self.timed_out = value, error, timed_out
        self.unlimited = unlimited


def run_limited(func, seconds=TIME_LIMIT):
    """Call `func()`; return an Outcome instead of raising or running forever."""
    enclosing = getattr(_running, "deadline", None)
    deadline = time.monotonic() + seconds
    if enclosing is not None:
        deadline = min(deadline, enclosing)
    func = _with_deadline(func, deadline)
    if hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
        outcome = _run_with_alarm(func, deadline)
    else:
        outcome = _run_in_thread(func, deadline)
    if outcome.timed_out and deadline == enclosing:
        raise TimeLimitExceeded()     # the enclosing check's time is up: stop its answer
    return outcome


def _with_deadline(func, deadline):
    """`func`, run knowing its deadline (in whichever thread runs it), for checks inside it."""
    def run():
        enclosing = getattr(_running, "deadline", None)
        _running.deadline = deadline
        try:
            return func()
        finally:
            _running.deadline = enclosing
    return run


def _run_with_alarm(func, deadline):
    def on_alarm(signum, frame):
        raise TimeLimitExceeded()

    started = time.monotonic()
    previous_handler = signal.signal(signal.SIGALRM, on_alarm)
    previous_timer = signal.setitimer(signal.ITIMER_REAL, max(deadline - started, 1e-6), _REPEAT)
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
        if previous_timer[0] > 0:             # someone else's alarm: give back what is left
            left = previous_timer[0] - (time.monotonic() - started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-6), previous_timer[1])


def _run_in_thread(func, deadline):
    box = {}

    def target():
        try:
            box["outcome"] = Outcome(value=func())
        except TimeLimitExceeded:
            box["outcome"] = Outcome(timed_out=True)
        except BaseException as error:        # noqa: BLE001
            box["outcome"] = Outcome(error=error)

    worker = threading.Thread(target=target, name="minigrad-check", daemon=True)
    try:
        worker.start()
    except RuntimeError:                      # no threads here (Pyodide): no time limit either
        target()
        box["outcome"].unlimited = True
        return box["outcome"]
    worker.join(max(deadline - time.monotonic(), 0))
    if worker.is_alive():
        _interrupt(worker)
        worker.join(0.5)
        return Outcome(timed_out=True)
    return box.get("outcome", Outcome(timed_out=True))


def _interrupt(worker):
    """Ask CPython to raise TimeLimitExceeded in `worker` (best effort: pure-Python loops)."""
    try:
        import ctypes
        ctypes.pythonapi.PyThreadState_SetAsyncExc(
            ctypes.c_ulong(worker.ident), ctypes.py_object(TimeLimitExceeded))
    except Exception:      # noqa: BLE001 — not CPython: the daemon thread is abandoned
        pass
