"""torch.autograd.functional.vjp and jvp, their docstrings' examples: exp_reducer with and
without create_graph, and adder of two inputs.

Source: https://pytorch.org/docs/2.13/generated/torch.autograd.functional.vjp.html
        https://pytorch.org/docs/2.13/generated/torch.autograd.functional.jvp.html
        (pytorch/pytorch, torch/autograd/functional.py)
Adapted: the results are printed.
"""
import torch
from torch.autograd.functional import jvp, vjp


def exp_reducer(x):
    return x.exp().sum(dim=1)


inputs = torch.rand(4, 4)
v = torch.ones(4)
print(vjp(exp_reducer, inputs, v))
print(vjp(exp_reducer, inputs, v, create_graph=True))


def adder(x, y):
    return 2 * x + 3 * y


inputs = (torch.rand(2), torch.rand(2))
v = torch.ones(2)
print(vjp(adder, inputs, v))

inputs = torch.rand(4, 4)
v = torch.ones(4, 4)
print(jvp(exp_reducer, inputs, v))
out, tangent = jvp(exp_reducer, inputs, v, create_graph=True)
print(out, tangent.requires_grad)

inputs = (torch.rand(2), torch.rand(2))
v = (torch.ones(2), torch.ones(2))
print(jvp(adder, inputs, v))
