"""《动手学深度学习》11.10 Adam算法 (从零开始实现): the two moving averages updated in place
through v[:] and s[:] under no_grad, bias correction, p[:] -= ..., and
p.grad.data.zero_().

Source: https://zh.d2l.ai/chapter_optimization/adam.html
        (d2l-ai/d2l-zh, chapter_optimization/adam.md, the pytorch tab)
Adapted: d2l.train_ch11 and its airfoil data are replaced by a linear model on 20 random
examples, trained for 10 steps.
"""
import torch


def init_adam_states(feature_dim):
    v_w, v_b = torch.zeros((feature_dim, 1)), torch.zeros(1)
    s_w, s_b = torch.zeros((feature_dim, 1)), torch.zeros(1)
    return ((v_w, s_w), (v_b, s_b))


def adam(params, states, hyperparams):
    beta1, beta2, eps = 0.9, 0.999, 1e-6
    for p, (v, s) in zip(params, states):
        with torch.no_grad():
            v[:] = beta1 * v + (1 - beta1) * p.grad
            s[:] = beta2 * s + (1 - beta2) * torch.square(p.grad)
            v_bias_corr = v / (1 - beta1 ** hyperparams['t'])
            s_bias_corr = s / (1 - beta2 ** hyperparams['t'])
            p[:] -= hyperparams['lr'] * v_bias_corr / (torch.sqrt(s_bias_corr) + eps)
        p.grad.data.zero_()
    hyperparams['t'] += 1


features = torch.normal(0, 1, (20, 5))
labels = features @ torch.tensor([[1.0], [-2.0], [0.5], [0.0], [3.0]]) + 0.1
w = torch.normal(mean=0.0, std=0.01, size=(5, 1), requires_grad=True)
b = torch.zeros((1), requires_grad=True)
states = init_adam_states(5)
hyperparams = {'lr': 0.01, 't': 1}
for step in range(10):
    l = ((features @ w + b - labels) ** 2 / 2).mean()
    l.backward()
    adam([w, b], states, hyperparams)
    print(step, f'{l.item():f}')
print(w.t(), b, states[1])
