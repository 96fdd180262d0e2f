"""Hooks for autograd saved tensors -- pack and unpack hooks on one saved tensor
(_raw_saved_self.register_hooks), then for a whole block (saved_tensors_hooks), and the
order they run in.

Source: https://pytorch.org/tutorials/intermediate/autograd_saved_tensors_hooks_tutorial.html
        (pytorch/tutorials, intermediate_source/autograd_saved_tensors_hooks_tutorial.py)
Adapted: nothing.
"""
import torch


def pack_hook(x):
    print("Packing", x)
    return x


def unpack_hook(x):
    print("Unpacking", x)
    return x


a = torch.ones(5, requires_grad=True)
b = torch.ones(5, requires_grad=True) * 2
y = a * b
y.grad_fn._raw_saved_self.register_hooks(pack_hook, unpack_hook)
y.sum().backward()

a = torch.ones(5, requires_grad=True)
b = torch.ones(5, requires_grad=True) * 2
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b

y.sum().backward()


def pack_hook(x):
    print("Packing", x)
    return x.detach().clone()


def unpack_hook(x):
    print("Unpacking", x)
    return x


a = torch.ones(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a.pow(2)
print(y.grad_fn._saved_self)
y.sum().backward()
print(a.grad)
