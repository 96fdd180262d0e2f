"""Autograd mechanics, "requires_grad": an operation requires grad when one of its
inputs does.

Source: https://pytorch.org/docs/2.13/notes/autograd.html#setting-requires-grad
        (pytorch/pytorch, docs/source/notes/autograd.rst)
Adapted: the doctest's values are printed.
"""
import torch

x = torch.randn(5, 5)  # requires_grad=False by default
y = torch.randn(5, 5)  # requires_grad=False by default
z = torch.randn((5, 5), requires_grad=True)
a = x + y
print(a.requires_grad)
b = a + z
print(b.requires_grad)
print(b.is_leaf, z.is_leaf, a.is_leaf, b.grad_fn.name())
