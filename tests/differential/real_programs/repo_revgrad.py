"""pytorch-revgrad's gradient reversal: RevGrad saves its input and a 0-dim alpha tensor
with save_for_backward, returns the input itself, and checks ctx.needs_input_grad in
backward.

Source: https://github.com/janfreyberg/pytorch-revgrad/blob/master/src/pytorch_revgrad/functional.py
        (janfreyberg/pytorch-revgrad, src/pytorch_revgrad/functional.py; the module keeps
        alpha as tensor(alpha, requires_grad=False))
Adapted: the module's forward is called as a function.
"""
import torch
from torch import tensor
from torch.autograd import Function


class RevGrad(Function):
    @staticmethod
    def forward(ctx, input_, alpha_):
        ctx.save_for_backward(input_, alpha_)
        output = input_
        return output

    @staticmethod
    def backward(ctx, grad_output):  # pragma: no cover
        grad_input = None
        _, alpha_ = ctx.saved_tensors
        if ctx.needs_input_grad[0]:
            grad_input = -grad_output * alpha_
        return grad_input, None


revgrad = RevGrad.apply
_alpha = tensor(1.0, requires_grad=False)

x = torch.tensor([1., 2., 3.], requires_grad=True)
h = x * 2
y = revgrad(h, _alpha)
print(y, y.grad_fn.name(), y is h)
(y * torch.tensor([1., 10., 100.])).sum().backward()
print(x.grad)
z = revgrad(x, tensor(0.5))
z.sum().backward()
print(x.grad)
