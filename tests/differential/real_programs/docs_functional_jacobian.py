"""torch.autograd.functional.jacobian, its docstring's examples: exp_reducer (also with
create_graph), exp_adder of two inputs, and a linear model with vectorize=True.

Source: https://pytorch.org/docs/2.13/generated/torch.autograd.functional.jacobian.html
        (pytorch/pytorch, torch/autograd/functional.py)
Adapted: the results are printed; the create_graph result's requires_grad rather than its
node (PyTorch's docstring shows an old name).
"""
import torch
from torch.autograd.functional import jacobian


def exp_reducer(x):
    return x.exp().sum(dim=1)


inputs = torch.rand(2, 2)
print(jacobian(exp_reducer, inputs))
print(jacobian(exp_reducer, inputs, create_graph=True).requires_grad)


def exp_adder(x, y):
    return 2 * x.exp() + 3 * y


inputs = (torch.rand(2), torch.rand(2))
print(jacobian(exp_adder, inputs))


def linear_model(x):
    W = torch.tensor([[2.0, -1.0], [0.0, 1.0]])
    b = torch.tensor([1.0, 0.5])
    return x @ W.T + b


x = torch.randn(4, 2, requires_grad=True)
jac = jacobian(linear_model, x, vectorize=True)
print(jac.shape)
print(jac[1, :, 1, :])
