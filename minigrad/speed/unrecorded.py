"""When a backward may skip the ops it is written in and work on arrays directly.

NOTE [backward on arrays]
Built-in backwards are written in differentiable Tensor ops, so that create_graph
records them (higher-order gradients for free).  Without create_graph those ops record
nothing: no node, no saved tensor; only their arrays matter, yet each still costs a
Function.apply.  A few backwards on the hot path (mm, mean, tanh, log_softmax, integer
indexing: an MLP's step; + - * and negation: every graph) test `nothing_recorded()` and
then compute the same arrays directly, with the op's own array code (arithmetic.py's
`_backward_ops` picks `operator.mul` or `_times`: one formula either way); with
create_graph (or in inference mode) they take the differentiable path.
"""
from ..core.grad_mode import state as _grad_mode


def nothing_recorded():
    """True when ops record nothing and return plain tensors (see the NOTE above)."""
    modes = _grad_mode.__dict__          # this thread's, found once
    return not (modes["enabled"] or modes["inference"])
