""""Why do we need to call zero_grad() in PyTorch?" (the accepted answer): gradients
accumulate on every backward; its vanilla gradient-descent loop zeroes W.grad.data
before the first backward has made it, and updates W in place outside no_grad -- both
refused by PyTorch 1.0 and later, in that order.

Source: https://stackoverflow.com/questions/48001598/why-do-we-need-to-call-zero-grad-in-pytorch
        (mirrored at https://python-decompiler.com/article/2017-12/why-do-we-need-to-call-zero-grad-in-pytorch)
Adapted: data and targets are four random samples; the errors are caught, then the loop
is run as it works today (grad zeroed after the update, the update under no_grad).
"""
import torch
from torch.autograd import Variable


def linear_model(x, W, b):
    return torch.matmul(x, W) + b


data, targets = torch.randn(4, 4), torch.randn(4, 3)
learning_rate = 0.01

W = Variable(torch.randn(4, 3), requires_grad=True)
b = Variable(torch.randn(3), requires_grad=True)

try:
    for sample, target in zip(data, targets):
        W.grad.data.zero_()
        b.grad.data.zero_()
except AttributeError as error:
    print("AttributeError:", error)

for sample, target in zip(data, targets):
    output = linear_model(sample, W, b)
    loss = ((output - target) ** 2).sum()
    loss.backward()
    try:
        W -= learning_rate * W.grad.data
    except RuntimeError as error:
        print("RuntimeError:", error)
        break

for sample, target in zip(data, targets):
    output = linear_model(sample, W, b)
    loss = ((output - target) ** 2).sum()
    loss.backward()
    with torch.no_grad():
        W -= learning_rate * W.grad
        b -= learning_rate * b.grad
    W.grad.data.zero_()
    b.grad.data.zero_()
    print(loss.item())
