"""torch.autograd.graph.allow_mutation_on_saved_tensors, its docstring's example: b is
saved by b**2 and then changed in place; backward still uses the saved value.

Source: https://pytorch.org/docs/2.13/autograd.html#torch.autograd.graph.allow_mutation_on_saved_tensors
        (pytorch/pytorch, torch/autograd/graph.py)
Adapted: the gradient is printed, and the same program without the context manager.
"""
import torch

with torch.autograd.graph.allow_mutation_on_saved_tensors():
    # forward
    a = torch.ones(2, 3, requires_grad=True)
    b = a.clone()
    out = (b**2).sum()
    b.sin_()
    # backward
    out.sum().backward()
print(a.grad)

a = torch.ones(2, 3, requires_grad=True)
b = a.clone()
out = (b**2).sum()
b.sin_()
try:
    out.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)
