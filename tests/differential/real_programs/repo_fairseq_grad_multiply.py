"""fairseq's GradMultiply: identity in forward (x.new(x), a new tensor on x's data), the
gradient scaled in backward -- used to scale the gradient reaching an encoder.

Source: https://github.com/facebookresearch/fairseq/blob/main/fairseq/modules/grad_multiply.py
        (facebookresearch/fairseq, fairseq/modules/grad_multiply.py)
Adapted: inputs and a backward are added.
"""
import torch


class GradMultiply(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.scale = scale
        res = x.new(x)
        return res

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.scale, None


x = torch.tensor([1., 2., 3.], requires_grad=True)
h = x * 2
y = GradMultiply.apply(h, 0.1)
print(y, y.grad_fn.name())
(y ** 2).sum().backward()
print(x.grad)
