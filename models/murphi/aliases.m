-- Aliases (written for orbit's tests): a rule-level alias inside a
-- ruleset names a process's record, a statement-level alias names a
-- value; writes through an alias change the variable it stands for.

const N: 3;
type
  pid: scalarset(N);
  proc: record count: 0..2; done: boolean; end;
var
  procs: array [pid] of proc;
  finished: 0..N;

startstate
begin
  for p: pid do
    alias me: procs[p] do
      me.count := 0;
      me.done := false;
    endalias;
  endfor;
  finished := 0;
end;

ruleset p: pid do
  alias me: procs[p] do
    rule "count" !me.done & me.count < 2 ==>
    begin
      me.count := me.count + 1;
    end;

    rule "finish" !me.done & me.count = 2 ==>
    begin
      alias next: finished + 1 do
        me.done := true;
        finished := next;
      endalias;
    end;
  endalias;
endruleset;

invariant "finished counts the done processes"
  finished = (exists p: pid do procs[p].done endexists ? finished : 0);
