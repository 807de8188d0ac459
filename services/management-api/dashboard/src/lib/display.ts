// Names and text from outside as the dashboard shows them: control and invisible format
// characters escaped, the one rule every display follows (libs/contracts display-text.ts).
export { displayText } from '../../../../../libs/contracts/src/display-text';
