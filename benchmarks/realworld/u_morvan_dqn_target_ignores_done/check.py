"""Self-contained: fitted Q-iteration on a 3-step corridor (reward 1 per step, episode ends after step 3),
with the Bellman target bootstrapping across the terminal transition vs. masking it."""
import torch
import torch.nn.functional as F


def _run(use_done):
    torch.manual_seed(0)
    n_states, gamma = 4, 0.9          # states 0,1,2 live; after state 2 the episode ends (next state 3 = reset/junk)
    net = torch.nn.Linear(n_states, 1, bias=False)
    tgt = torch.nn.Linear(n_states, 1, bias=False)
    tgt.load_state_dict(net.state_dict())
    opt = torch.optim.SGD(net.parameters(), lr=0.5)
    eye = torch.eye(n_states)
    s = torch.tensor([0, 1, 2])
    s_next = torch.tensor([1, 2, 0])   # after the terminal step the env resets to state 0
    r = torch.ones(3)
    done = torch.tensor([0.0, 0.0, 1.0])
    for it in range(1500):
        q = net(eye[s]).squeeze(1)
        with torch.no_grad():
            q_next = tgt(eye[s_next]).squeeze(1)
            target = r + gamma * ((1 - done) if use_done else 1.0) * q_next
        loss = F.mse_loss(q, target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if it % 20 == 0:
            tgt.load_state_dict(net.state_dict())
    return net(eye[torch.tensor([0])]).item()


def _check() -> str:
    bad, good = _run(False), _run(True)
    true_return = 1 + 0.9 + 0.81
    assert abs(good - true_return) < 0.05 and bad > 3 * true_return, (bad, good, true_return)
    return f"Q(start) without done mask {bad:.2f}, with done mask {good:.2f}; true discounted return {true_return:.2f}"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
