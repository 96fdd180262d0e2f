"""Extending PyTorch, "Saving intermediate results for double backward": MyCube returns
dx as an output so that it is saved properly, and its backward adds grad_dx's term.

Source: https://pytorch.org/docs/2.13/notes/extending.html
        (pytorch/pytorch, docs/source/notes/extending.rst)
Adapted: a second derivative is computed and printed, and gradgradcheck.
"""
import torch


class MyCube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        dx = 3 * x ** 2
        result = x ** 3
        return result, dx

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        result, dx = output
        ctx.save_for_backward(x, dx)

    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        result = grad_output * dx + grad_dx * 6 * x
        return result


def my_cube(x):
    result, dx = MyCube.apply(x)
    return result


x = torch.tensor([1., 2.], requires_grad=True)
y = my_cube(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
gg, = torch.autograd.grad(g.sum(), x)
print(y, g, gg)
print(torch.autograd.gradgradcheck(my_cube, torch.tensor([0.5, -1.5], dtype=torch.double,
                                                          requires_grad=True)))
