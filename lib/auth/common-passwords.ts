/**
 * Passwords too common to accept (issue 13): the most frequent entries of public breach corpora
 * (SecLists' top lists, NCSC's 100k list) that pass the 8-character minimum, plus the shapes
 * they come in. Checked lowercased, so "PassWord1" is caught as well as "password1".
 */
const common = new Set(
  `12345678 123456789 1234567890 12345678910 87654321 11111111 00000000 88888888 11223344 12341234
  123123123 147258369 159753456 987654321 0987654321 1q2w3e4r 1q2w3e4r5t 1qaz2wsx qwertyuiop qwerty123
  qwerty12 qwertyui asdfghjkl asdfghjk zxcvbnm1 zxcvbnmm 1qazxsw2 zaq12wsx q1w2e3r4 q1w2e3r4t5 qazwsxedc
  password password1 password12 password123 password1234 passw0rd p@ssw0rd p@ssword pa55word pass1234
  iloveyou iloveyou1 iloveyou2 letmein1 letmein123 welcome1 welcome123 sunshine sunshine1 princess
  princess1 football football1 baseball baseball1 basketball superman superman1 batman123 trustno1
  starwars dragon123 monkey123 master123 shadow123 michael1 jennifer jordan23 computer internet
  whatever freedom1 changeme changeme123 administrator admin123 admin1234 root1234 secret123 abcd1234
  abc12345 abcdefgh abcdefg1 a1b2c3d4 aa123456 asdf1234 qwer1234 1234qwer 1234abcd 123abc123 abc123456
  testtest test1234 test12345 testing123 default1 guest123 login123 master12 mustang1 charlie1 liverpool
  chelsea1 arsenal1 spiderman pokemon1 naruto123 minecraft fortnite butterfly chocolate sandiego
  michelle jessica1 ashley12 nicole12 daniel12 samsung1 samsung123 google123 facebook linkedin
  blink182 loveyou1 lovelove myspace1 1password 999999999 123qweasd qweasdzxc qweasd123 zxcvbnm123
  123456789a 12345678a a12345678 1234567a 12345qwert qwert12345 11111111a aaaaaaaa 1111111111
  00000000a password! password1! welcome! 1234567890a gateway123 bitcoin1 bitcoin123 ethereum crypto123`
    .split(/\s+/)
    .filter(Boolean),
);

/** Common base words people decorate with digits and symbols ("password2024!", "Welcome#1"). */
const commonWords = new Set(
  "password passw0rd p@ssw0rd qwerty qwertyuiop letmein welcome iloveyou admin administrator monkey dragon football baseball sunshine princess master shadow superman trustno1 changeme secret login test default guest abc".split(
    " ",
  ),
);

const sequences = ["0123456789", "9876543210", "abcdefghijklmnopqrstuvwxyz", "qwertyuiop", "asdfghjkl", "zxcvbnm"];

/** Why a password is too easy to guess, or null. */
export function commonPasswordReason(password: string): string | null {
  const lower = password.toLowerCase();
  if (common.has(lower)) return "This password is too common.";
  const base = lower.replace(/[\d\W_]+$/u, "").replace(/^[\d\W_]+/u, "");
  if (commonWords.has(base)) return "This password is too common.";
  if (/^(.)\1+$/su.test(password)) return "This password is a single repeated character.";
  if (/^\d+$/.test(password) && sequences.some((s) => s.includes(password) || s.repeat(3).includes(password))) return "This password is a sequence.";
  if (sequences.some((s) => s.includes(lower))) return "This password is a sequence.";
  return null;
}
