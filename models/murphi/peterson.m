-- Peterson's mutual exclusion algorithm generalised to N processes (the
-- filter lock): a process climbs levels 1..N-1; at each level it names
-- itself the victim and waits while it is the victim and some other
-- process is at that level or above. Written for orbit's tests.

const
  N: 3;

type
  pid: scalarset(N);
  level: 0..N-1;
  pc_t: enum {idle, set_level, set_victim, wait, crit};

var
  pc: array [pid] of pc_t;
  lv: array [pid] of level;
  victim: array [level] of pid;

ruleset p: pid do
  rule "start" pc[p] = idle ==>
  begin
    lv[p] := 1;
    pc[p] := set_victim;
  end;

  rule "victim" pc[p] = set_victim ==>
  begin
    victim[lv[p]] := p;
    pc[p] := wait;
  end;

  rule "climb" pc[p] = wait &
    (victim[lv[p]] != p | forall q: pid do q = p | lv[q] < lv[p] endforall) ==>
  begin
    if lv[p] = N - 1 then
      pc[p] := crit;
    else
      lv[p] := lv[p] + 1;
      pc[p] := set_victim;
    endif;
  end;

  rule "leave" pc[p] = crit ==>
  begin
    lv[p] := 0;
    pc[p] := idle;
  end;
endruleset;

startstate
begin
  for p: pid do
    pc[p] := idle;
    lv[p] := 0;
  endfor;
  for l: level do
    undefine victim[l];
  endfor;
end;

invariant "mutual exclusion"
  forall p: pid do forall q: pid do
    (pc[p] = crit & pc[q] = crit) -> p = q
  endforall endforall;
