"""torch.autograd.graph.saved_tensors_hooks, its docstring's example: pack detaches, both
hooks print; the ones given are kept until backward.

Source: https://pytorch.org/docs/2.13/autograd.html#torch.autograd.graph.saved_tensors_hooks
        (pytorch/pytorch, torch/autograd/graph.py)
Adapted: a backward call is added.
"""
import torch


def pack_hook(x):
    print("Packing", x)
    return x.detach()


def unpack_hook(x):
    print("Unpacking", x)
    return x


a = torch.ones(5, requires_grad=True)
b = torch.ones(5, requires_grad=True) * 2
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b

y.sum().backward()
print(a.grad, b.grad)
