"""The gradient reversal layer of domain-adversarial training (DANN): ReverseLayerF is
x.view_as(x) in forward and -alpha times the gradient in backward; a feature feeds a
label head and, reversed, a domain head.

Source: https://github.com/fungtion/DSN/blob/master/functions.py (and the same
        ReverseLayerF in fungtion/DANN and its many copies)
Adapted: two linear heads written with tensors in place of the repository's networks.
"""
import torch
from torch.autograd import Function


class ReverseLayerF(Function):

    @staticmethod
    def forward(ctx, x, alpha):
        ctx.alpha = alpha

        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        output = grad_output.neg() * ctx.alpha

        return output, None


x = torch.randn(4, 3)
w_feature = torch.randn(3, 5, requires_grad=True)
w_label = torch.randn(5, 2, requires_grad=True)
w_domain = torch.randn(5, 1, requires_grad=True)

feature = (x @ w_feature).relu()
label_loss = (feature @ w_label).pow(2).mean()
reverse_feature = ReverseLayerF.apply(feature, 0.5)
print(reverse_feature.grad_fn.name(), reverse_feature._base is None)
domain_loss = (reverse_feature @ w_domain).sigmoid().mean()
(label_loss + domain_loss).backward()
print(w_feature.grad)
print(w_domain.grad.t())
