"""《动手学深度学习》4.8 数值稳定性和模型初始化: the sigmoid's gradient vanishing at both
ends (backward with ones_like), and a product of random matrices exploding.

Source: https://zh.d2l.ai/chapter_multilayer-perceptrons/numerical-stability-and-init.html
        (d2l-ai/d2l-zh, chapter_multilayer-perceptrons/numerical-stability-and-init.md)
Adapted: no plot: the gradients at a few points are printed.
"""
import torch

x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.sigmoid(x)
y.backward(torch.ones_like(x))
print(x.grad[::20])
print(x.grad.max(), x.grad.argmax())

M = torch.normal(0, 1, size=(4, 4))
print('一个矩阵 \n', M)
for i in range(100):
    M = torch.mm(M, torch.normal(0, 1, size=(4, 4)))

print('乘以100个矩阵后\n', M)
