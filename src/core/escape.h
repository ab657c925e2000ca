/*
 * Escaping text for markup. Both accept NULL (nothing is appended).
 *   escape_xml   & < > ' "  -> entities: attribute values and text of the
 *                libvirt XML (vm-templates/), either quote style
 *   escape_html  & < > "    -> entities: report HTML and SVG (attributes are
 *                double-quoted; an apostrophe stays as it is)
 */
#ifndef DBRIG_CORE_ESCAPE_H
#define DBRIG_CORE_ESCAPE_H

struct strbuf;

void escape_xml(struct strbuf *sb, const char *s);
void escape_html(struct strbuf *sb, const char *s);

#endif
