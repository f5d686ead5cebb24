# scdoc puts a paragraph macro after every heading and before every other one; mandoc's lint
# calls those empty. Drops each .P that starts no text: after .TH/.SH or before .SH/.P/the end.
/^\.P$/ {
	if (last !~ /^\.(TH|SH|P)( |$)/)
		held = 1
	next
}
{
	if (held && $0 !~ /^\.(SH|P|RE)( |$)/)
		print ".P"
	held = 0
	print
	last = $0
}
