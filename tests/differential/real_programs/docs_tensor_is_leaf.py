"""torch.Tensor.is_leaf, its docstring's example: leaves are the tensors made by the user
(or that do not require grad); a cast with requires_grad records an op.

Source: https://pytorch.org/docs/2.13/generated/torch.Tensor.is_leaf.html
        (pytorch/pytorch, torch/_tensor_docs.py)
Adapted: .double() in place of .cuda() (the same kind of copy, on the CPU).
"""
import torch

a = torch.rand(10, requires_grad=True)
print(a.is_leaf)
b = torch.rand(10, requires_grad=True).double()
print(b.is_leaf)
# b was created by the operation that cast a cpu Tensor into a double Tensor
c = torch.rand(10, requires_grad=True) + 2
print(c.is_leaf)
# c was created by the addition operation
d = torch.rand(10).double()
print(d.is_leaf)
# d does not require gradients and so has no operation creating it (that is tracked by
# the autograd engine)
e = torch.rand(10).double().requires_grad_()
print(e.is_leaf)
# e requires gradients and has no operations creating it
f = torch.rand(10, requires_grad=True, dtype=torch.double)
print(f.is_leaf)
print(b.grad_fn)
