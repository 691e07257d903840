-- A lock whose owner is either one of the processes (a scalarset) or the
-- home node (an enumeration), written for orbit's tests: `owner` has a
-- union type, as in CMurphi's symmetric cache models (Rumur rejects
-- unions). Processes are interchangeable; the home node is not.

const N: 3;
type
  proc: scalarset(N);
  home_t: enum {home};
  agent: union {proc, home_t};
  phase: enum {idle, want, holding};
var
  owner: agent;
  state: array [proc] of phase;
  requests: array [agent] of boolean;

startstate
begin
  owner := home;
  for p: proc do
    state[p] := idle;
  endfor;
  for a: agent do
    requests[a] := false;
  endfor;
end;

ruleset p: proc do
  rule "ask" state[p] = idle ==>
  begin
    state[p] := want;
    requests[p] := true;
  end;

  rule "take" state[p] = want & owner = home ==>
  begin
    owner := p;
    requests[p] := false;
    state[p] := holding;
  end;

  rule "give back" state[p] = holding ==>
  begin
    owner := home;
    state[p] := idle;
  end;
endruleset;

rule "home wants it" owner != home & !requests[home] ==>
begin
  requests[home] := true;
end;

rule "home served" owner = home & requests[home] ==>
begin
  requests[home] := false;
end;

invariant "one holder, and it owns the lock"
  forall p: proc do state[p] = holding -> owner = p endforall;
