# scdoc puts a paragraph macro after every heading and before every other one; mandoc's lint
# calls those empty. Drops each paragraph macro that starts no text: after .TH/.SH/.SS or
# another paragraph macro, or before a heading, a paragraph macro, .RE or the end.
# scdoc up to 1.11.2 writes .P, 1.11.3 (Debian 13) writes .PP; .LP means the same.
function is_paragraph(line) { return line ~ /^\.(P|PP|LP)$/ }
is_paragraph($0) {
	if (last !~ /^\.(TH|SH|SS)( |$)/ && !is_paragraph(last))
		held = $0
	next
}
{
	if (held != "" && $0 !~ /^\.(SH|SS|RE)( |$)/)
		print held
	held = ""
	print
	last = $0
}
