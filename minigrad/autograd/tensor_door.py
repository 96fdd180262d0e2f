"""The one door by which the autograd core reaches the Tensor class and the ops.

The Tensor class and the ops are built on the autograd core: every op is a
Function, every tensor may point at a node.  So the core (Function.apply, the
nodes, saved tensors, the engine) never imports them.  Where it must make a tensor
of its own, or ask whether something is a tensor, it goes through the names below.
tensor.py fills them in when it is imported, before any tensor exists.
"""

# The class minigrad.Tensor: `isinstance(x, tensor_door.Tensor)` asks "is x a tensor?",
# and `tensor_door.Tensor._make(array)` wraps an array (no copy).
Tensor = None

# ones_like(tensor): the gradient backward() starts from for a one-element tensor.
ones_like = None

# zeros(shape, dtype, device): a gradient that never came, as zeros.
zeros = None

# first_grad(grad_outputs): a leaf's first .grad, made of the gradient AccumulateGrad was
# given: the gradient's own array when nothing else holds it, else a copy (recorded as
# copy_() records it while grad mode is on, so that create_graph can go on).
first_grad = None

# rebase_view(view): a custom Function changed a view in place: its base's history goes
# through CopySlices, as for a built-in in-place op (ops/view_history.py).
rebase_view = None

# stack(dim, *tensors): tensors of one shape joined along a new dim (StackBackward0).
stack = None

# positions_in_base(view, base): where each element of a view sits in its base.
positions_in_base = None
