import { looksLikePath, readPromptMentions } from './read-prompt-mentions';

describe('readPromptMentions', () => {
  it('reads file names and paths in prose, without the punctuation around them', () => {
    expect(readPromptMentions('Compare notes.txt with (src/app.ts), /etc/hosts and ~/todo, please.').paths).toEqual([
      'notes.txt',
      'src/app.ts',
      '/etc/hosts',
      '~/todo',
    ]);
  });

  it('takes no ordinary word, abbreviation or URL for a path', () => {
    expect(readPromptMentions('Say hello, e.g. in French and/or German, i.e. briefly: see https://example.com/a.html').paths).toEqual([]);
    for (const word of ['hello', 'e.g', 'i.e', 'and/or', '3.14', 'v1.2', 'https://example.com/a.txt', 'two words.txt']) expect(looksLikePath(word)).toBe(false);
    for (const path of ['.env', './build', '../x', 'README.md', 'a/b/c.json', '/tmp']) expect(looksLikePath(path)).toBe(true);
  });

  it('reads the command after "run" or "execute" up to the end of its clause, and `$ ` lines', () => {
    expect(readPromptMentions('Run ls -la and tell me what you see').commands).toEqual(['ls -la']);
    expect(readPromptMentions('Please execute the command npm test, then report.').commands).toEqual(['npm test']);
    expect(readPromptMentions('Run git log --oneline -3. Then stop.').commands).toEqual(['git log --oneline -3']);
    expect(readPromptMentions('What does this print?\n$ uname -a\n').commands).toEqual(['uname -a']);
  });

  it('takes "run" followed by an article for no command', () => {
    expect(readPromptMentions('Run the tests and then a lint').commands).toEqual([]);
  });

  it('reads quoted values in order, a quoted value with a space or right after "run" as a command, and lets the quote end the clause', () => {
    const mentions = readPromptMentions('Run `ls` in `/tmp/work`, then `cat notes.txt` and open `https://example.com/x`');
    expect(mentions.quoted).toEqual(['ls', '/tmp/work', 'cat notes.txt', 'https://example.com/x']);
    expect(mentions.commands).toEqual(['ls', 'cat notes.txt']);
    expect(mentions.paths).toEqual(['/tmp/work']);
    expect(mentions.urls).toEqual(['https://example.com/x']);
  });

  it('reads URLs in prose without a closing full stop', () => {
    expect(readPromptMentions('Fetch https://example.com/docs?page=2.').urls).toEqual(['https://example.com/docs?page=2']);
  });

  it('keeps at most eight of each kind, whatever the length of the prompt', () => {
    const prompt = Array.from({ length: 50 }, (_, index) => `file${index}.txt`).join(' ');
    expect(readPromptMentions(prompt).paths).toEqual(Array.from({ length: 8 }, (_, index) => `file${index}.txt`));
  });
});
