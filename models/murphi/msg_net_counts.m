-- `msg_net.m` with the network kept as a count of each message instead of
-- a multiset: the same system, so the same number of reachable states,
-- with and without symmetry (transitions differ: a multiset fires a rule
-- once per copy of a message). Rumur runs this one.

const
  N: 3;
  K: 3;
type
  proc: scalarset(N);
  kind: enum {req, ack};
  phase: enum {idle, waiting, busy};
var
  cnt: array [proc] of array [kind] of 0 .. K;
  state: array [proc] of phase;

function total(): 0 .. K;
var t: 0 .. K;
begin
  t := 0;
  for p: proc do
    for k: kind do
      t := t + cnt[p][k];
    endfor;
  endfor;
  return t;
end;

startstate
begin
  for p: proc do
    state[p] := idle;
    for k: kind do
      cnt[p][k] := 0;
    endfor;
  endfor;
end;

ruleset p: proc do
  rule "request" state[p] != busy & total() < K ==>
  begin
    cnt[p][req] := cnt[p][req] + 1;
    state[p] := waiting;
  end;

  rule "receive" cnt[p][ack] > 0 ==>
  begin
    cnt[p][ack] := cnt[p][ack] - 1;
    state[p] := busy;
  end;

  rule "release" state[p] = busy ==>
  begin
    state[p] := idle;
  end;

  rule "flush" state[p] = idle & cnt[p][ack] > 0 ==>
  begin
    cnt[p][ack] := 0;
  end;

  rule "serve" cnt[p][req] > 0 ==>
  begin
    cnt[p][req] := cnt[p][req] - 1;
    cnt[p][ack] := cnt[p][ack] + 1;
  end;
endruleset;

invariant "a waiting process has a message in flight"
  forall p: proc do
    state[p] = waiting -> cnt[p][req] + cnt[p][ack] > 0
  endforall;
