"""Hooks for autograd saved tensors -- saving tensors to disk: the pack hook writes each
saved tensor to a file with torch.save and keeps its name, the unpack hook loads it.

Source: https://pytorch.org/tutorials/intermediate/autograd_saved_tensors_hooks_tutorial.html
        (pytorch/tutorials, intermediate_source/autograd_saved_tensors_hooks_tutorial.py)
Adapted: file names from a counter (the tutorial uses uuid4), in a temporary folder.
"""
import itertools
import os
import tempfile

import torch

tmp_dir_obj = tempfile.TemporaryDirectory()
tmp_dir = tmp_dir_obj.name
names = itertools.count()


def pack_hook(tensor):
    name = os.path.join(tmp_dir, str(next(names)))
    torch.save(tensor, name)
    return name


def unpack_hook(name):
    return torch.load(name, weights_only=True)


x = torch.randn(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = x.pow(2)
print(y.grad_fn._saved_self)
y.sum().backward()
print(torch.allclose(x.grad, 2 * x))
print(sorted(os.listdir(tmp_dir)))
tmp_dir_obj.cleanup()
