"""A straight-through estimator with detach (the round_pass of LSQ quantization code,
shown in a notebook of detach examples): y.detach() - y_grad.detach() + y_grad rounds
in forward and passes the gradient through unchanged.

Source: https://github.com/flyingTan/DeepLearningJupyter (the detach notebook)
        (the same round_pass is in zhutmost/lsq-net, quan/quantizer/lsq.py)
Adapted: restated in a few lines.
"""
import torch


def round_pass(x):
    y = x.round()
    y_grad = x
    return y.detach() - y_grad.detach() + y_grad


def grad_scale(x, scale):
    y = x
    y_grad = x * scale
    return (y - y_grad).detach() + y_grad


a = torch.tensor([1, 2, 4.5], requires_grad=True)
b = 2 * a
m = round_pass(b)
m.sum().backward()
print(b, m, a.grad)

x = torch.tensor([1, 2, 4.5], requires_grad=True)
y = torch.tensor([1, 2, 4.5], requires_grad=True)
z = round_pass(x) + y
z.sum().backward()
print(x.grad, y.grad)

s = torch.tensor(0.5, requires_grad=True)
q = round_pass(x.detach() / grad_scale(s, 0.1)) * grad_scale(s, 0.1)
q.sum().backward()
print(q, s.grad)
