-- A counter that leaves its range (written for orbit's tests): the
-- assignment is a model error with the trace that reaches it.
var n: 0..3;
startstate begin n := 0; end;
rule "inc" true ==> begin n := n + 1; end;
