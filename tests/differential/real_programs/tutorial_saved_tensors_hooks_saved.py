"""Hooks for autograd saved tensors -- what a node saved: x.pow(2) saves x itself
(_saved_self is x), x.exp() saves its result (equal, not the same object).

Source: https://pytorch.org/tutorials/intermediate/autograd_saved_tensors_hooks_tutorial.html
        (pytorch/tutorials, intermediate_source/autograd_saved_tensors_hooks_tutorial.py)
Adapted: the memory measurements on a torchvision model are left out.
"""
import torch

x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(y.grad_fn._saved_self)
print(x.equal(y.grad_fn._saved_self))  # True
print(x is y.grad_fn._saved_self)  # True

x = torch.randn(5, requires_grad=True)
y = x.exp()
print(y.equal(y.grad_fn._saved_result))  # True
print(y is y.grad_fn._saved_result)  # False
