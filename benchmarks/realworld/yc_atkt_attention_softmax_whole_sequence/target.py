"""Knowledge tracing: LSTM over (skill, answer) interactions with an attention pooling of past states (ATKT-style)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_SKILLS = 20


class KTBackbone(nn.Module):
    def __init__(self, n_skills=N_SKILLS, skill_dim=16, answer_dim=8, hidden_dim=32, attention_dim=24):
        super().__init__()
        self.n_skills = n_skills
        self.skill_emb = nn.Embedding(n_skills + 1, skill_dim)
        self.answer_emb = nn.Embedding(3, answer_dim)
        self.rnn = nn.LSTM(skill_dim + answer_dim, hidden_dim, batch_first=True)
        self.mlp = nn.Linear(hidden_dim, attention_dim)
        self.similarity = nn.Linear(attention_dim, 1, bias=False)
        self.fc = nn.Linear(hidden_dim * 2, n_skills)

    def attention_module(self, lstm_output):
        att_w = torch.tanh(self.mlp(lstm_output))
        att_w = self.similarity(att_w)
        alphas = nn.Softmax(dim=1)(att_w)
        attn_output = alphas * lstm_output
        attn_output_cum = torch.cumsum(attn_output, dim=1)
        attn_output_cum_1 = attn_output_cum - attn_output
        return torch.cat((attn_output_cum_1, lstm_output), 2)

    def forward(self, skill, answer):
        skill_answer = torch.cat((self.skill_emb(skill), self.answer_emb(answer)), 2)
        out, _ = self.rnn(skill_answer)
        out = self.attention_module(out)
        return torch.sigmoid(self.fc(out))          # (B, T, n_skills): P(correct) for every skill


def next_step_loss(res, targets):
    next_skill, next_answer = targets                # both (B, T)
    pred = res.gather(2, next_skill.unsqueeze(2)).squeeze(2)
    return F.binary_cross_entropy(pred, next_answer.float())


def auc(res, targets):
    next_skill, next_answer = targets
    pred = res.gather(2, next_skill.unsqueeze(2)).squeeze(2).flatten()
    y = next_answer.flatten().float()
    pos, neg = pred[y == 1], pred[y == 0]
    if len(pos) == 0 or len(neg) == 0:
        return 0.5
    return (pos[:, None] > neg[None, :]).float().mean().item()


def make_batch(n_students=32, seq_len=21, seed=0):
    g = torch.Generator().manual_seed(seed)
    skills = torch.randint(0, N_SKILLS, (n_students, seq_len), generator=g)
    ability = torch.randn(n_students, 1, generator=g)
    difficulty = torch.randn(N_SKILLS, generator=g)
    p = torch.sigmoid(ability - difficulty[skills])
    answers = (torch.rand(n_students, seq_len, generator=g) < p).long()
    inputs = (skills[:, :-1], answers[:, :-1])
    targets = (skills[:, 1:], answers[:, 1:])
    return inputs, targets


def make_target():
    torch.manual_seed(0)
    model = KTBackbone()
    inputs, targets = make_batch()
    return {
        "model": model,
        "batch": (inputs, targets),
        "loss_fn": next_step_loss,
        "metric_fn": auc,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "val_data": [make_batch(seed=1)],
        "causal": True,
    }
