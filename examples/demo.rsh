# A tour of recsh. Run it on a copy of the example file:
#   cp examples/tasks.json /tmp/tasks.json
#   recsh -e -s examples/demo.rsh /tmp/tasks.json
# (-e echoes each command before its output.)

# What is open, most urgent first:
list done=false sort -priority,due limit 5
count done=false
list title~milk fields id,title,tags

# Select a record by id prefix or position, and edit it.
use @2
show
set done true                 # one undo step
set priority 0 title "Buy milk, bread and eggs"   # two fields, still one step

# Lists: one element in or out.
add tags weekly
remove tags shopping

# A custom field needs the explicit '+' form the first time.
set +store "corner shop"

# Several edits as ONE undo step.
begin "weekly review"
use @1; set priority 5
use @3; set due 2026-12-24
end

history
undo                          # reverts the whole "weekly review"
redo

# Many records at once, as one undo step each.
set priority 1 where done=false due>2027-01-01
add tags someday where priority<=1
history
undo 2

# For other programs: records as the file holds them, one per line.
format jsonl
list tags=work
format table

# Nothing is written until 'save'.
save
