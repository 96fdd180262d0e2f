"""《动手学深度学习》4.2 多层感知机的从零开始实现: parameters as nn.Parameter, relu with
torch.max against zeros, X @ W1 + b1, nn.CrossEntropyLoss and torch.optim.SGD.

Source: https://zh.d2l.ai/chapter_multilayer-perceptrons/mlp-scratch.html
        (d2l-ai/d2l-zh, chapter_multilayer-perceptrons/mlp-scratch.md, the pytorch tab)
Adapted: 20 random inputs of 12 features, 16 hidden units, 3 classes stand in for
Fashion-MNIST; d2l.train_ch3 is written out as five steps.
"""
import torch
from torch import nn

num_inputs, num_outputs, num_hiddens = 12, 3, 16

W1 = nn.Parameter(torch.randn(num_inputs, num_hiddens, requires_grad=True) * 0.01)
b1 = nn.Parameter(torch.zeros(num_hiddens, requires_grad=True))
W2 = nn.Parameter(torch.randn(num_hiddens, num_outputs, requires_grad=True) * 0.01)
b2 = nn.Parameter(torch.zeros(num_outputs, requires_grad=True))

params = [W1, b1, W2, b2]


def relu(X):
    a = torch.zeros_like(X)
    return torch.max(X, a)


def net(X):
    X = X.reshape((-1, num_inputs))
    H = relu(X@W1 + b1)  # 这里“@”代表矩阵乘法
    return (H@W2 + b2)


loss = nn.CrossEntropyLoss(reduction='none')
updater = torch.optim.SGD(params, lr=0.1)

features = torch.randn(20, num_inputs)
labels = torch.randint(0, num_outputs, (20,))
for epoch in range(5):
    l = loss(net(features), labels)
    updater.zero_grad()
    l.mean().backward()
    updater.step()
    print(epoch, float(l.mean()))
print(W1)
