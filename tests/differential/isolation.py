"""minigrad's switches kept across a case: grad mode, inference and anomaly mode, forward
AD's level, the saved-tensor hooks, the default dtype, numpy's error handling and the
recorder are, after the block, what they were before it (the checker of the exercises
keeps them the same way).  A case that leaves one set, or a failure halfway through a
`with` block, cannot change the cases after it."""
import contextlib


@contextlib.contextmanager
def minigrad_state_kept():
    from minigrad.exercises._isolation import _Switches
    before = _Switches.now()
    try:
        yield
    finally:
        before.restore()
