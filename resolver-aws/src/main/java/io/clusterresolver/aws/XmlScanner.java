package io.clusterresolver.aws;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;

/**
 * A pull reader of one UTF-8 API answer held in memory: the few calls of {@link javax.xml.stream.XMLStreamReader}
 * a page reader uses ({@link #next()}, {@link #localName()}, {@link #elementText()}), over the bytes themselves.
 *
 * <p>Why not the JDK's StAX parser: a cold resolve reads 1.5 MB of {@code DescribeInstances} XML once, before
 * the JIT has compiled the JDK's parser (its reader decodes a character at a time through several layers);
 * that read was about a quarter of a cold resolve's CPU. This one loops over bytes, which C1 compiles at once.
 *
 * <p>It reads XML 1.0 as an API answer is written and refuses what is not well formed: tags must nest and
 * close, text outside the root is white space only, references are the five predefined entities or
 * character references, the bytes are UTF-8 (an answer declaring another encoding is refused) and hold no
 * control characters. A document type declaration is skipped, never processed: no entity of it is ever
 * expanded, no external resource read (as the StAX reader configured without DTD support). Comments,
 * processing instructions and CDATA sections are read as XML defines them; a prefix must be declared, but
 * namespaces are not resolved (a name's local part is what is matched).
 */
final class XmlScanner {

  /** Deeper than any API answer nests (EC2's are about 12 deep): a bound on what a hostile answer makes us hold. */
  static final int MAX_DEPTH = 256;

  private final byte[] doc;
  private final int end;
  private int pos;
  /** Names of the open elements, innermost first. */
  private final Deque<String> open = new ArrayDeque<>();
  /** Namespace prefixes declared by the open elements, as "depth:prefix". */
  private final List<String> prefixes = new ArrayList<>();
  /** The attribute names of the tag being read. */
  private final List<String> attributes = new ArrayList<>();
  private String name;
  private boolean emptyElement;
  private boolean rootClosed;
  private boolean rootSeen;

  private XmlScanner(byte[] doc) {
    this.doc = doc;
    this.end = doc.length;
  }

  /** A reader of {@code doc}, checked to be UTF-8 without control characters. */
  static XmlScanner of(byte[] doc) throws XMLStreamException {
    XmlScanner scanner = new XmlScanner(doc);
    scanner.checkBytes();
    scanner.prolog();
    return scanner;
  }

  /**
   * The next event: {@link XMLStreamConstants#START_ELEMENT}, {@link XMLStreamConstants#END_ELEMENT} or, once
   * the root element has closed and only white space, comments and processing instructions follow,
   * {@link XMLStreamConstants#END_DOCUMENT}.
   */
  int next() throws XMLStreamException {
    if (emptyElement) {
      emptyElement = false;
      return closed();
    }
    while (true) {
      if (pos >= end) {
        if (!open.isEmpty() || !rootSeen) {
          throw error("the answer ended before its last element closed");
        }
        return XMLStreamConstants.END_DOCUMENT;
      }
      if (doc[pos] != '<') {
        skipText();
        continue;
      }
      byte after = pos + 1 < end ? doc[pos + 1] : 0;
      if (after == '/') {
        endTag();
        return closed();
      }
      if (after == '!' || after == '?') {
        markup(false);
        continue;
      }
      startTag();
      return XMLStreamConstants.START_ELEMENT;
    }
  }

  /** The name, prefix included, of the element just started or ended. */
  String qualifiedName() {
    return name;
  }

  /** The local name (without a prefix) of the element just started or ended. */
  String localName() {
    int colon = name.indexOf(':');
    return colon <= 0 ? name : name.substring(colon + 1);
  }

  /**
   * The text of the element just started, which must hold text only (character data, references, CDATA
   * sections, comments): as {@link javax.xml.stream.XMLStreamReader#getElementText()}, it leaves the reader
   * on the element's end.
   */
  String elementText() throws XMLStreamException {
    if (emptyElement) {
      emptyElement = false;
      closed();
      return "";
    }
    StringBuilder text = null;
    while (true) {
      int from = pos;
      while (pos < end) {
        byte b = doc[pos];
        if (b == '<' || b == '&' || b == '\r') {
          break;
        }
        if (b == ']') {
          notCdataEnd();
        }
        pos++;
      }
      if (pos >= end) {
        throw error("the answer ended before its last element closed");
      }
      byte stop = doc[pos];
      boolean endTag = stop == '<' && pos + 1 < end && doc[pos + 1] == '/';
      if (text == null && endTag) {
        String plain = string(from, pos); // the usual case: plain text, then the end tag
        endTag();
        closed();
        return plain;
      }
      if (text == null) {
        text = new StringBuilder();
      }
      text.append(string(from, pos));
      if (endTag) {
        endTag();
        closed();
        return text.toString();
      }
      if (stop == '&') {
        reference(text);
      } else if (stop == '\r') {
        text.append('\n'); // line ends read as XML reads them: CR LF and a lone CR are one LF
        pos += pos + 1 < end && doc[pos + 1] == '\n' ? 2 : 1;
      } else if (pos + 1 < end && (doc[pos + 1] == '!' || doc[pos + 1] == '?')) {
        String cdata = markup(true);
        if (cdata != null) {
          text.append(cdata.replace("\r\n", "\n").replace('\r', '\n'));
        }
      } else {
        throw error("<" + localName() + "> holds an element where text was expected");
      }
    }
  }

  // ---- the document ----

  /** UTF-8 (checked strictly only when there is a byte beyond ASCII) and no control characters. */
  private void checkBytes() throws XMLStreamException {
    boolean ascii = true;
    for (int i = 0; i < end; i++) {
      byte b = doc[i];
      if (b < 0x20) {
        if (b < 0) {
          ascii = false;
        } else if (b != '\t' && b != '\n' && b != '\r') {
          pos = i;
          throw error("a control character (0x" + Integer.toHexString(b) + ") is not allowed in XML");
        }
      }
    }
    if (!ascii) {
      // Checked a piece at a time: a large answer is never held a second time as characters.
      CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder(); // reports malformed input
      ByteBuffer in = ByteBuffer.wrap(doc);
      CharBuffer out = CharBuffer.allocate(8192);
      while (true) {
        CoderResult result = decoder.decode(in, out, true);
        if (result.isError()) {
          pos = in.position();
          throw error("the answer is not UTF-8");
        }
        out.flip();
        while (out.hasRemaining()) {
          char c = out.get();
          if (c == '\uFFFE' || c == '\uFFFF') {
            throw error("a character that is not allowed in XML (U+FFFE or U+FFFF)");
          }
        }
        out.clear();
        if (result.isUnderflow()) {
          return;
        }
      }
    }
  }

  /** A byte order mark and the XML declaration, whose encoding must be UTF-8. */
  private void prolog() throws XMLStreamException {
    if (end >= 3 && doc[0] == (byte) 0xEF && doc[1] == (byte) 0xBB && doc[2] == (byte) 0xBF) {
      pos = 3;
    }
    if (startsWith("<?xml") && pos + 5 < end && whiteSpace(doc[pos + 5])) {
      pos += 5;
      declaration();
    }
  }

  /** The XML declaration's version, encoding (UTF-8 only) and standalone, in that order, after {@code <?xml}. */
  private void declaration() throws XMLStreamException {
    String version = pseudoAttribute("version", true);
    if (version == null || !version.startsWith("1.") || version.length() < 3 || !digits(version.substring(2))) {
      throw error("an XML declaration without version 1.x");
    }
    String encoding = pseudoAttribute("encoding", false);
    if (encoding != null && !encoding.equalsIgnoreCase("UTF-8") && !encoding.equalsIgnoreCase("US-ASCII")) {
      throw error("the answer is in " + encoding + ", not UTF-8");
    }
    String standalone = pseudoAttribute("standalone", false);
    if (standalone != null && !standalone.equals("yes") && !standalone.equals("no")) {
      throw error("standalone='" + standalone + "' in the XML declaration");
    }
    skipSpace();
    if (!startsWith("?>")) {
      throw error("an XML declaration that does not end with '?>'");
    }
    pos += 2;
  }

  /** {@code name="value"} (or single quotes) next in the XML declaration: its value, or {@code null} if absent. */
  private String pseudoAttribute(String name, boolean required) throws XMLStreamException {
    int from = pos;
    if (!skipSpace() || !startsWith(name)) {
      pos = from;
      if (required) {
        throw error("an XML declaration without " + name);
      }
      return null;
    }
    pos += name.length();
    skipSpace();
    if (pos >= end || doc[pos] != '=') {
      throw error("no '=' after " + name + " in the XML declaration");
    }
    pos++;
    skipSpace();
    byte quote = pos < end ? doc[pos] : 0;
    if (quote != '"' && quote != '\'') {
      throw error("the " + name + " of the XML declaration is not quoted");
    }
    int close = ++pos;
    while (close < end && doc[close] != quote && nameByte(doc[close]) && doc[close] != ':' && doc[close] > 0) {
      close++;
    }
    if (close >= end || doc[close] != quote || close == pos) {
      throw error("the " + name + " of the XML declaration is not a name");
    }
    String value = string(pos, close);
    pos = close + 1;
    return value;
  }

  private static boolean digits(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  /** Character data between elements, which outside the root must be white space. */
  private void skipText() throws XMLStreamException {
    boolean inside = !open.isEmpty();
    while (pos < end && doc[pos] != '<') {
      byte b = doc[pos];
      if (b == '&') {
        if (!inside) {
          throw error("a reference outside the root element");
        }
        reference(null);
        continue;
      }
      if (!inside && !whiteSpace(b)) {
        throw error("text outside the root element");
      }
      if (b == ']') {
        notCdataEnd();
      }
      pos++;
    }
  }

  /** {@code ]]>} may not stand in text (only at the end of a CDATA section). */
  private void notCdataEnd() throws XMLStreamException {
    if (pos + 2 < end && doc[pos + 1] == ']' && doc[pos + 2] == '>') {
      throw error("']]>' in text");
    }
  }

  private void startTag() throws XMLStreamException {
    if (rootClosed) {
      throw error("a second root element");
    }
    pos++;
    name = name();
    attributes.clear();
    while (true) {
      boolean spaced = skipSpace();
      if (pos >= end) {
        throw error("the answer ended inside the tag <" + name + ">");
      }
      byte b = doc[pos];
      if (b == '>') {
        pos++;
        break;
      }
      if (b == '/') {
        if (pos + 1 >= end || doc[pos + 1] != '>') {
          throw error("'/' not followed by '>' in the tag <" + name + ">");
        }
        pos += 2;
        emptyElement = true;
        break;
      }
      if (!spaced) {
        throw error("no white space before an attribute of <" + name + ">");
      }
      attribute();
    }
    if (open.size() == MAX_DEPTH) {
      throw error("elements nested deeper than " + MAX_DEPTH);
    }
    open.push(name);
    rootSeen = true;
    for (String attribute : attributes) {
      if (attribute.startsWith("xmlns:")) {
        String prefix = attribute.substring(6);
        if (prefix.isEmpty() || prefix.indexOf(':') >= 0 || !nameStart(prefix.charAt(0))) {
          throw error("the namespace declaration " + attribute + " declares no prefix");
        }
        prefixes.add(open.size() + ":" + prefix);
      }
    }
    bound(name);
    for (String attribute : attributes) {
      if (!attribute.startsWith("xmlns:")) {
        bound(attribute);
      }
    }
  }

  /** A prefixed name's prefix must be declared on its element or an enclosing one. */
  private void bound(String qualified) throws XMLStreamException {
    int colon = qualified.indexOf(':');
    if (colon < 0) {
      return;
    }
    if (colon == 0) { // no prefix: the JDK's reader takes a leading colon as part of the local name
      if (qualified.indexOf(':', 1) >= 0) {
        throw error("the name " + qualified + " is not a qualified name");
      }
      return;
    }
    String prefix = qualified.substring(0, colon);
    if (colon + 1 == qualified.length() || !nameStart(qualified.charAt(colon + 1))
        || qualified.indexOf(':', colon + 1) >= 0) {
      throw error("the name " + qualified + " is not a qualified name");
    }
    if (prefix.equals("xml")) {
      return;
    }
    for (String declared : prefixes) {
      if (declared.substring(declared.indexOf(':') + 1).equals(prefix)) {
        return;
      }
    }
    throw error("the prefix " + prefix + " of " + qualified + " is not declared");
  }

  private void attribute() throws XMLStreamException {
    String attribute = name();
    if (attributes.contains(attribute)) {
      throw error("the attribute " + attribute + " twice in <" + name + ">");
    }
    attributes.add(attribute);
    skipSpace();
    if (pos >= end || doc[pos] != '=') {
      throw error("the attribute " + attribute + " of <" + name + "> has no value");
    }
    pos++;
    skipSpace();
    byte quote = pos < end ? doc[pos] : 0;
    if (quote != '"' && quote != '\'') {
      throw error("the value of the attribute " + attribute + " is not quoted");
    }
    pos++;
    while (pos < end && doc[pos] != quote) {
      if (doc[pos] == '<') {
        throw error("'<' in the value of the attribute " + attribute);
      }
      if (doc[pos] == '&') {
        reference(null);
      } else {
        pos++;
      }
    }
    if (pos >= end) {
      throw error("the answer ended inside the tag <" + name + ">");
    }
    pos++;
  }

  private void endTag() throws XMLStreamException {
    pos += 2;
    String closing = name();
    skipSpace();
    if (pos >= end || doc[pos] != '>') {
      throw error("the end tag </" + closing + "> does not end with '>'");
    }
    pos++;
    String expected = open.peek();
    if (!closing.equals(expected)) {
      throw error(expected == null ? "the end tag </" + closing + "> closes no element"
          : "the end tag </" + closing + "> where </" + expected + "> was expected");
    }
    name = closing;
  }

  /** The element {@link #name} has ended. */
  private int closed() {
    open.pop();
    if (!prefixes.isEmpty()) {
      String depth = (open.size() + 1) + ":";
      prefixes.removeIf(declared -> declared.startsWith(depth));
    }
    if (open.isEmpty()) {
      rootClosed = true;
    }
    return XMLStreamConstants.END_ELEMENT;
  }

  /**
   * A comment, processing instruction, CDATA section or document type declaration at {@link #pos}; returns
   * the text of a CDATA section when {@code text} (and {@code null} for the others).
   */
  private String markup(boolean text) throws XMLStreamException {
    if (startsWith("<!--")) {
      int close = indexOf("--", pos + 4);
      if (close + 2 >= end || doc[close + 2] != '>') {
        throw error("'--' inside a comment");
      }
      pos = close + 3;
      return null;
    }
    if (startsWith("<?")) {
      pos += 2;
      String target = name();
      if (target.equalsIgnoreCase("xml")) {
        throw error("an XML declaration that is not at the start");
      }
      int close = indexOf("?>", pos);
      if (close > pos && !whiteSpace(doc[pos])) {
        throw error("no white space after the processing instruction's name");
      }
      pos = close + 2;
      return null;
    }
    if (startsWith("<![CDATA[")) {
      if (open.isEmpty()) {
        throw error("a CDATA section outside the root element");
      }
      int close = indexOf("]]>", pos + 9);
      String cdata = text ? string(pos + 9, close) : null;
      pos = close + 3;
      return cdata;
    }
    if (startsWith("<!DOCTYPE") && !rootSeen && !text) {
      skipDoctype();
      return null;
    }
    throw error("markup that is not allowed here");
  }

  /** Skips a document type declaration, internal subset included, without reading anything it declares. */
  private void skipDoctype() throws XMLStreamException {
    pos += 9;
    byte quote = 0;
    int depth = 0;
    while (pos < end) {
      byte b = doc[pos++];
      if (quote != 0) {
        if (b == quote) {
          quote = 0;
        }
      } else if (b == '"' || b == '\'') {
        quote = b;
      } else if (b == '[') {
        depth++;
      } else if (b == ']') {
        depth--;
      } else if (b == '>' && depth <= 0) {
        return;
      }
    }
    throw error("the answer ended inside its document type declaration");
  }

  /**
   * A reference at {@link #pos}: one of the five predefined entities or a character reference, appended to
   * {@code text} when given. Any other entity is refused (a document type declaration is never read).
   */
  private void reference(StringBuilder text) throws XMLStreamException {
    int semicolon = pos + 1;
    while (semicolon < end && semicolon - pos <= 10 && doc[semicolon] != ';') {
      semicolon++;
    }
    if (semicolon >= end || doc[semicolon] != ';') {
      throw error("'&' that does not start a reference");
    }
    String entity = string(pos + 1, semicolon);
    int c;
    switch (entity) {
      case "lt": c = '<'; break;
      case "gt": c = '>'; break;
      case "amp": c = '&'; break;
      case "quot": c = '"'; break;
      case "apos": c = '\''; break;
      default: c = characterReference(entity);
    }
    if (text != null) {
      text.appendCodePoint(c);
    }
    pos = semicolon + 1;
  }

  private int characterReference(String entity) throws XMLStreamException {
    int c = -1;
    try {
      if (entity.startsWith("#x")) {
        c = Integer.parseInt(entity.substring(2), 16);
      } else if (entity.startsWith("#") && entity.length() > 1 && entity.charAt(1) != '+' && entity.charAt(1) != '-') {
        c = Integer.parseInt(entity.substring(1));
      }
    } catch (NumberFormatException e) {
      c = -1;
    }
    if (entity.startsWith("#x") && (entity.length() < 3 || entity.charAt(2) == '+' || entity.charAt(2) == '-')) {
      c = -1;
    }
    boolean allowed = c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD)
        || (c >= 0x10000 && c <= 0x10FFFF);
    if (!allowed) {
      throw error(entity.startsWith("#") ? "the character reference &" + entity + "; is not a character of XML"
          : "the entity &" + entity + "; is not declared (an API answer uses only the predefined ones)");
    }
    return c;
  }

  // ---- bytes ----

  /** A name at {@link #pos}: ASCII letters, digits, {@code - . _ :} and any character beyond ASCII. */
  private String name() throws XMLStreamException {
    int from = pos;
    while (pos < end && nameByte(doc[pos])) {
      pos++;
    }
    if (pos == from) {
      throw error("a tag, attribute or processing instruction without a name");
    }
    if (!nameStart((char) doc[from])) {
      throw error("a name that starts with '" + (char) doc[from] + "'");
    }
    return string(from, pos);
  }

  /** Whether a name may start with {@code c}, one of the characters {@link #nameByte} allows. */
  private static boolean nameStart(char c) {
    return c != '-' && c != '.' && (c < '0' || c > '9');
  }

  private static boolean nameByte(byte b) {
    return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '-' || b == '.'
        || b == '_' || b == ':' || b < 0;
  }

  private boolean skipSpace() {
    int from = pos;
    while (pos < end && whiteSpace(doc[pos])) {
      pos++;
    }
    return pos > from;
  }

  private static boolean whiteSpace(byte b) {
    return b == ' ' || b == '\n' || b == '\t' || b == '\r';
  }

  private boolean startsWith(String s) {
    if (pos + s.length() > end) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (doc[pos + i] != s.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /** Where {@code s} (ASCII) next occurs from {@code from}; the answer must hold it. */
  private int indexOf(String s, int from) throws XMLStreamException {
    byte first = (byte) s.charAt(0);
    for (int i = from; i + s.length() <= end; i++) {
      if (doc[i] == first) {
        int k = 1;
        while (k < s.length() && doc[i + k] == s.charAt(k)) {
          k++;
        }
        if (k == s.length()) {
          return i;
        }
      }
    }
    throw error("the answer ended before '" + s + "'");
  }

  private String string(int from, int to) {
    return new String(doc, from, to - from, StandardCharsets.UTF_8);
  }

  private XMLStreamException error(String what) {
    return new XMLStreamException("Not a well-formed answer at byte " + pos + ": " + what);
  }
}
