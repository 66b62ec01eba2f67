# recsh script: the edits to '/tmp//recsh-storage-mQC7fM/t.json' from the saved state to now, exported 1970-01-01
# Run it on the file as it was then: recsh -s e.rsh FILE. Every value it
# replaces is checked first; on a file changed since, it stops at the first mismatch, changing nothing.
assert c3 title== "three \"quoted\"\nline" priority== 5
begin 'Replay of the saved state to now'
use c3; set title 'b c' priority 4
insert @4 '{"id": "n1", "title": "a", "priority": 5}'
insert @5 '{"id": "n2", "title": "1.50", "priority": 2}'
end
save
