import { formatCsvCell } from './format-usage-csv';

const NBSP = '\u00a0';
const IDEOGRAPHIC_SPACE = '\u3000';

describe('formatCsvCell', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    // Leading white space that spreadsheets skip before reading a formula.
    [' =1+1', "' =1+1"],
    ['   +1', "'   +1"],
    [`${NBSP}=1+1`, `'${NBSP}=1+1`],
    [`${NBSP} ${NBSP}@A1`, `'${NBSP} ${NBSP}@A1`],
    [`${IDEOGRAPHIC_SPACE}-1`, `'${IDEOGRAPHIC_SPACE}-1`],
    // The full-width forms.
    ['＝1+1', "'＝1+1"],
    ['＋1', "'＋1"],
    ['－1', "'－1"],
    ['＠SUM(A1)', "'＠SUM(A1)"],
    [` ＝1+1`, "' ＝1+1"],
    // A control character first is neutralised whatever follows; a tab, CR or LF also quotes the cell.
    ['\0x', "'\0x"],
    ['\tx', `"'\tx"`],
    ['\t=1+1', `"'\t=1+1"`],
    ['\r\n=1', `"'\r\n=1"`],
  ])('neutralises %j as %j', (value, cell) => {
    expect(formatCsvCell(value)).toBe(cell);
  });

  it.each([
    // The list separator of common locales: comma, semicolon (where the comma is the decimal mark), tab.
    ['a,b', '"a,b"'],
    [';=1+1', '";=1+1"'],
    ['x;=HYPERLINK("http://evil")', '"x;=HYPERLINK(""http://evil"")"'],
    ['a\tb', '"a\tb"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['two\r\nlines', '"two\r\nlines"'],
    // A formula that also holds a separator: neutralised, then quoted.
    ['=1;2', `"'=1;2"`],
    [' -2,5', `"' -2,5"`],
  ])('quotes %j as %j', (value, cell) => {
    expect(formatCsvCell(value)).toBe(cell);
  });

  it.each([
    ['signalbox-sim', 'signalbox-sim'],
    ['a=b', 'a=b'],
    ['x-1', 'x-1'],
    ['user@example.com', 'user@example.com'],
    ['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'],
    ['', ''],
    ['   ', '   '],
  ])('leaves %j as it is', (value, cell) => {
    expect(formatCsvCell(value)).toBe(cell);
  });

  it('writes numbers and booleans as they are, null as an empty cell, and a list joined with "; " (so quoted)', () => {
    expect([formatCsvCell(-0.25), formatCsvCell(0), formatCsvCell(true), formatCsvCell(null)]).toEqual(['-0.25', '0', 'true', '']);
    expect(formatCsvCell(['only'])).toBe('only');
    expect(formatCsvCell(['a', 'b'])).toBe('"a; b"');
    expect(formatCsvCell([' =x', 'b'])).toBe(`"' =x; b"`);
    expect(formatCsvCell([])).toBe('');
  });
});
