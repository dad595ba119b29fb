/**
 * Sign-in's public entry: two-factor enrolment for the operator commands (a staff member's reset,
 * the re-sealing of secrets) and the start's sealing of secrets stored before they were sealed.
 */
export {
  findTwoFactor,
  newRecoveryCodes,
  resetTwoFactor,
  sealTwoFactorSecrets,
  startEnrolment,
} from './two-factor';
